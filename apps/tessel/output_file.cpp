// Output files that never lose or damage anything: checked before any work, written through a
// temporary file and a rename (regular files), in place (FIFOs, devices, the terminal), through
// symlinks, with every write checked.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "apps/tessel/commands.h"
#include "util/error.h"

namespace tessel::app {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& option, const std::string& why) {
  throw ConfigError(
      {path, 0, 0, ""},
      "cannot write the " + (option.empty() ? std::string("output") : option) + " file: " + why);
}

std::string reason(int err) { return std::strerror(err); }

// Where a write to `path` lands: a symlink's (final) target, else the path itself.
std::string target(const std::string& path) {
  std::error_code ec;
  std::string t = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(t, ec); ++hops) {
    const fs::path link = fs::read_symlink(t, ec);
    if (ec) break;
    t = (link.is_absolute() ? link : fs::path(t).parent_path() / link).lexically_normal().string();
  }
  return t;
}

std::string directoryOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// An identity for comparing paths: device and inode when the file exists, else the canonical
// directory plus the name.
std::string identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  std::error_code ec;
  const fs::path t(target(path));
  return (fs::weakly_canonical(t.parent_path().empty() ? "." : t.parent_path(), ec) / t.filename())
      .string();
}

void checkOne(const OutputPath& o) {
  const std::string t = target(o.path);
  struct stat st {};
  if (::stat(t.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(o.path, o.option, "it is a directory");
    // No write bit for anyone means read-only, even to root (whom access() lets through).
    if (S_ISREG(st.st_mode) && (st.st_mode & 0222) == 0) {
      fail(o.path, o.option, "it is read-only; remove it or make it writable first");
    }
    if (::access(t.c_str(), W_OK) != 0) {
      fail(o.path, o.option,
           errno == EACCES || errno == EROFS ? "it is read-only (" + reason(errno) + ")"
                                             : reason(errno));
    }
    if (!S_ISREG(st.st_mode)) return;  // a FIFO or device is written in place
  }
  const std::string dir = directoryOf(t);
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0)
    fail(o.path, o.option, "directory '" + dir + "' does not exist");
  if (!S_ISDIR(ds.st_mode)) fail(o.path, o.option, "'" + dir + "' is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    fail(o.path, o.option, "cannot create files in '" + dir + "' (" + reason(errno) + ")");
  }
}

void writeAll(int fd, const std::string& text, const std::string& path) {
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      fail(path, "", reason(err));
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

void writeInPlace(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "", reason(errno));
  writeAll(fd, text, path);
  if (::close(fd) != 0) fail(path, "", reason(errno));
}

// A regular file: a temporary beside it, then a rename, so readers see the old report or the
// new one, never half of one. An existing file's permission bits are kept.
void replaceFile(const std::string& path, const std::string& text) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && ((st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0)) {
    fail(path, "", "it is read-only");
  }
  std::string tmp =
      (fs::path(directoryOf(path)) / ("." + fs::path(path).filename().string() + ".XXXXXX"))
          .string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail(path, "", "cannot create a file beside it (" + reason(errno) + ")");
  mode_t mode = 0666;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode &= ~mask;
  }
  try {
    writeAll(fd, text, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (::fchmod(fd, mode) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "", reason(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(path, "", reason(err));
  }
}

}  // namespace

bool isStandardOutput(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

void checkOutputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
  std::vector<std::pair<std::string, const OutputPath*>> seen;  // identity -> output
  for (const OutputPath& o : outputs) {
    if (o.path.empty()) continue;
    const std::string id = isStandardOutput(o.path) ? std::string("<stdout>") : identity(o.path);
    for (const auto& [other_id, other] : seen) {
      if (other_id == id) {
        throw ConfigError({o.path, 0, 0, ""}, other->option + " and " + o.option +
                                                  " name the same file; one would replace "
                                                  "the other");
      }
    }
    seen.emplace_back(id, &o);
    if (isStandardOutput(o.path)) continue;
    for (const std::string& in : inputs) {
      struct stat a {
      }, b{};
      if (!in.empty() && ::stat(in.c_str(), &a) == 0 && ::stat(o.path.c_str(), &b) == 0 &&
          a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
        throw ConfigError({o.path, 0, 0, ""}, o.option + " names an input of this command (" + in +
                                                  "); refusing to write a report over it");
      }
    }
    checkOne(o);
  }
}

void writeOutput(const std::string& path, const std::string& text, std::ostream& stdout_stream) {
  if (isStandardOutput(path)) {
    stdout_stream << text;
    if (!stdout_stream.flush()) throw ConfigError({"standard output", 0, 0, ""}, reason(errno));
    return;
  }
  const std::string t = target(path);
  struct stat st {};
  if (::stat(t.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) fail(path, "", "it is a directory");
    writeInPlace(t, text);  // FIFO, device, socket: never replaced
    return;
  }
  replaceFile(t, text);
}

}  // namespace tessel::app
