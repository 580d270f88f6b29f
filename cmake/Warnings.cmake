# Warnings for our own targets only; third-party headers come in as SYSTEM includes.
function(skinpulse_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
    -Wcast-align -Wnull-dereference -Wimplicit-fallthrough)
  if(SKINPULSE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
