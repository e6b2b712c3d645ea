# Tool policy evaluation: cold (cache miss) and cached, 60 tools, layered config.
add_executable(policy_bench ${CMAKE_CURRENT_LIST_DIR}/policy_bench.cc)
target_link_libraries(policy_bench PRIVATE clawtools_policy benchmark::benchmark_main)
