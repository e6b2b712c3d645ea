# check-command analysis time per command over the corpus (GoClaw's regex pass: ~53 µs here).
add_executable(execpolicy_bench ${CMAKE_CURRENT_LIST_DIR}/execpolicy_bench.cc)
target_include_directories(execpolicy_bench PRIVATE ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(execpolicy_bench PRIVATE clawtools_execpolicy benchmark::benchmark_main)
