# Start-to-exit latency of `true` on the host versus in the native sandbox; included from
# bench/CMakeLists.txt.
add_executable(sandbox_bench ${CMAKE_CURRENT_LIST_DIR}/sandbox_bench.cc)
target_link_libraries(sandbox_bench PRIVATE clawtools_sandbox benchmark::benchmark)
