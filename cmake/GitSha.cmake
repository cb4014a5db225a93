# Run at every build (cmake -P): writes OUT, a C++ file defining cb::git_sha(), from the source
# tree's HEAD, with "-dirty" when tracked files differ from it. The file is rewritten only when the
# text changes, so an unchanged tree rebuilds nothing; a commit rebuilds one small file. Reading
# the commit at configure time instead left results naming a commit the binary was not built from.
#   cmake -DSOURCE_DIR=<tree> -DOUT=<file.cpp> -P GitSha.cmake
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
  OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT sha)
  set(sha "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
    WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_VARIABLE changes ERROR_QUIET)
  if(changes)
    string(APPEND sha "-dirty")
  endif()
endif()
set(text "// Written at build time by cmake/GitSha.cmake.\n#include \"core/version.hpp\"\n\nnamespace cb {\nconst char* git_sha() { return \"${sha}\"; }\n} // namespace cb\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
