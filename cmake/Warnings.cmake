# Warnings for our own targets only; third-party headers come in as SYSTEM includes.
function(skinpulse_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wcast-align -Wnull-dereference -Wimplicit-fallthrough)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 reports -Wrestrict inside libstdc++'s std::string at -O2 (GCC PR 105329).
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(SKINPULSE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
