# skinpulse_list_plugin(<name> <Class>): a list plugin (ListSource.hpp) from <Class>.cpp and
# Plugin.cpp in the calling folder: source_<name>_core (static, hidden visibility, on the
# shared reader source_list) and the plugin source_<name>.so. Included by each list
# plugin's CMakeLists.txt (the sources/ folders are added in alphabetical order, some
# before common/).
function(skinpulse_list_plugin name class)
  add_library(source_${name}_core STATIC ${class}.cpp)
  target_include_directories(source_${name}_core PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(source_${name}_core PUBLIC skinpulse::sdk source_list)
  set_target_properties(source_${name}_core PROPERTIES CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  skinpulse_warnings(source_${name}_core)
  skinpulse_add_plugin(source ${name} SOURCES Plugin.cpp LIBRARIES source_${name}_core)
endfunction()
