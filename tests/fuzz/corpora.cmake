# Each harness's seed corpus, a folder of tests/fuzz/. The fuzz build runs
# the harness on a copy of it (tests/fuzz/CMakeLists.txt); the ordinary
# build replays it through the same harness without libFuzzer
# (tests/CMakeLists.txt), so the regression inputs in it run on every
# `make test`. A harness without an entry here stops the configuration.
set(WARPDP_FUZZ_CORPUS_fuzz_seq_reader corpus)
set(WARPDP_FUZZ_CORPUS_fuzz_hmm_reader corpus-hmm)
set(WARPDP_FUZZ_CORPUS_fuzz_nw_reads corpus-nw)
set(WARPDP_FUZZ_CORPUS_fuzz_candidate_stream corpus-candidates)
set(WARPDP_FUZZ_CORPUS_fuzz_seqdist_table corpus-seqdist-table)

function(warpdp_fuzz_corpus stem out)
  if(NOT DEFINED WARPDP_FUZZ_CORPUS_${stem})
    message(FATAL_ERROR "tests/fuzz/${stem}.cpp has no seed corpus in tests/fuzz/corpora.cmake")
  endif()
  set(${out} ${PROJECT_SOURCE_DIR}/tests/fuzz/${WARPDP_FUZZ_CORPUS_${stem}} PARENT_SCOPE)
endfunction()
