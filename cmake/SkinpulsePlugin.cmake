# skinpulse_add_plugin(<kind> <name> SOURCES ... [LIBRARIES ...] [NO_INSTALL])
# Builds <kind>_<name>.so into build/lib/skinpulse/plugins. The loader checks that the
# file name agrees with the descriptor's kind and name.
function(skinpulse_add_plugin kind name)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  set(target plugin_${kind}_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  # Every bundled plugin, for the dev-run target (cmake/DevTarget.cmake).
  set_property(GLOBAL APPEND PROPERTY SKINPULSE_PLUGIN_TARGETS ${target})
  set(out ${SKINPULSE_PLUGIN_OUTPUT_DIR})
  if(ARG_OUTPUT_DIR)
    set(out ${ARG_OUTPUT_DIR})
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME "${kind}_${name}"
    LIBRARY_OUTPUT_DIRECTORY ${out}
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_link_libraries(${target} PRIVATE skinpulse::sdk ${ARG_LIBRARIES})
  if(NOT SKINPULSE_SANITIZE)
    # Plugins need no daemon symbols: an undefined reference is a bug.
    target_link_options(${target} PRIVATE -Wl,-z,defs)
  endif()
  skinpulse_warnings(${target})
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${target} LIBRARY DESTINATION ${SKINPULSE_INSTALL_PLUGINDIR} COMPONENT runtime)
  endif()
endfunction()
