# Filesystem tool benchmarks; included from bench/CMakeLists.txt.
add_executable(fs_bench ${CMAKE_CURRENT_LIST_DIR}/fs_bench.cc)
target_link_libraries(fs_bench PRIVATE clawtools_tools_fs benchmark::benchmark)
target_include_directories(fs_bench PRIVATE ${CMAKE_SOURCE_DIR})

# CLI used by bench/search_vs_rg.sh to time our search next to ripgrep.
add_executable(fs_search ${CMAKE_CURRENT_LIST_DIR}/fs_search_main.cc)
target_link_libraries(fs_search PRIVATE clawtools_tools_fs)
target_include_directories(fs_search PRIVATE ${CMAKE_SOURCE_DIR})
