// Paths written inside input files. A file that names another file is resolved from the folder
// of the file that names it (never from the working directory), under one of two rules:
//   resolveInside  files that may come from a third party (an ONNX model's external data): the
//                  path must be relative and stay inside that folder, after `..` is folded and
//                  after symbolic links are followed; anything else is a ConfigError.
//   resolveBeside  the user's own configs (an accelerator's technology.table, a sweep spec's
//                  base/designs/workload files, a study's steps/grid): an absolute path is taken
//                  as written, a relative one from the referring file's folder.
// docs/workloads.md ("Files named inside files") lists which surface follows which rule.
#pragma once

#include <string>

#include "util/error.h"

namespace tessel {

// `written` resolved inside `base_dir` ("" = the working directory): the joined, lexically
// normal path. ConfigError at `where` when it is empty, absolute, climbs out with `..`, or
// resolves through a symbolic link to a file outside `base_dir`. `what` names the field in the
// message, e.g. "initializer 'w': external data location".
std::string resolveInside(const std::string& base_dir, const std::string& written,
                          const std::string& what, const SourceLocation& where = {});

// `written` as named by the file `referring_file`: absolute as written, relative from its folder.
std::string resolveBeside(const std::string& referring_file, const std::string& written);

// The folder of a file path ("" for a bare file name, i.e. the working directory).
std::string folderOf(const std::string& file);

}  // namespace tessel
