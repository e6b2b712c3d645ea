# Credential scrubber benchmark; included from bench/CMakeLists.txt.
add_executable(scrub_bench
  ${CMAKE_CURRENT_LIST_DIR}/scrub_bench.cc
  ${CMAKE_CURRENT_LIST_DIR}/scrub_corpus.cc
)
target_link_libraries(scrub_bench PRIVATE clawtools_scrub benchmark::benchmark)
