# Unity builds (docs/adr/0029-build-speed.md): each target's sources are compiled in
# batches of SKINPULSE_UNITY_BATCH_SIZE files, one compiler run per batch, so the
# third-party headers every file includes (the standard library, Poco, spdlog, Boost) are
# parsed once per batch instead of once per file. On by default (dev-run and CI build
# from scratch) for the daemon, the CLI, the plugins and the benchmarks;
# -DSKINPULSE_UNITY_BUILD=OFF for a tree where one file is edited and rebuilt over and
# over. The test suites under tests/ are compiled one file at a time (the top-level
# CMakeLists.txt turns unity off before adding them): about twenty of their files share
# file-local names (kNow, fixtures' helper types), listed in the ADR for when they are
# given names of their own.
option(SKINPULSE_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
set(SKINPULSE_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch")
if(SKINPULSE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${SKINPULSE_UNITY_BATCH_SIZE})
endif()

# Files compiled on their own even in a unity build: their file-local names (anonymous
# namespace) are also declared by another file of the same target, or a type of theirs
# would leak into a header's class. Found with one batch per target (batch size 0), so
# every smaller batch is safe too. New sources are combined by default; a clash shows as
# a redefinition error in a unity build: add the file here (or give the name a file of
# its own) rather than rename in a hurry.
#   <target> <file, relative to the repository root> — the clash
set(SKINPULSE_UNITY_EXCLUDED
  # trim() is also file-local in http/ClientAddress.cpp (another return type)
  skinpulse_http daemon/http/Framing.cpp
  # kOutputChunk is also file-local in net/BrotliDecoder.cpp
  skinpulse_net daemon/net/ZlibDecoder.cpp
  # steadyMs() is also file-local in access/AccessModule.cpp
  skinpulse_access daemon/access/ReadBudget.cpp
  # wide() is also file-local in metrics/Bucket.cpp
  skinpulse_metrics daemon/metrics/BucketLevel.cpp
  # its file-local kWindows makes metrics/Windows.hpp's kWindows ambiguous in later files
  skinpulse_metrics daemon/metrics/CandlesWindows.cpp
  # its file-local alias HttpError clashes with `using http::HttpError` in PortfolioApi.cpp
  skinpulse_portfolio daemon/portfolio/InventoryFetcher.cpp
  # Key holds an EVP_PKEY deleter from the .cpp's anonymous namespace (-Wsubobject-linkage)
  plugin_source_dmarket plugins/sources/dmarket/Ed25519Signer.cpp
  # kindText() is also file-local in PostgresBackend.cpp
  bench_scale bench/scale/SqliteBackend.cpp
)

# Called at the end of the top-level CMakeLists.txt, once every target exists.
function(skinpulse_apply_unity_exclusions)
  set(pairs ${SKINPULSE_UNITY_EXCLUDED})
  list(LENGTH pairs count)
  if(count EQUAL 0)
    return()
  endif()
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET pairs ${i} target)
    list(GET pairs ${j} file)
    if(TARGET ${target})
      set_source_files_properties(${PROJECT_SOURCE_DIR}/${file} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
