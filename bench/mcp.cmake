# MCP client and server benchmarks (bench/mcp_bench.sh); included from bench/CMakeLists.txt.
# The clawtools server under test is the fixture server of tests/mcp_server: the real runtime
# pipeline plus a test-only `echo` tool.
add_executable(mcp_bench_client ${CMAKE_CURRENT_LIST_DIR}/mcp_bench_client.cc)
target_link_libraries(mcp_bench_client PRIVATE clawtools_mcp)
target_include_directories(mcp_bench_client PRIVATE ${CMAKE_SOURCE_DIR}/src)

add_executable(mcp_bench_server ${CMAKE_SOURCE_DIR}/tests/mcp_server/mcp_fixture_server.cc)
target_link_libraries(mcp_bench_server PRIVATE clawtools_gateway clawtools_mcp_server)
