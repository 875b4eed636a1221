// The front door's OS side on Linux and macOS: main(), exec of Node, the state folder, the
// terminal and the signals.
#include <dirent.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "front/front.h"

#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace plumb {
namespace front {
namespace {

char** g_argv = nullptr;  // the arguments as the OS passed them, for HandOff
CancelFlag* g_cancel = nullptr;
volatile sig_atomic_t g_interrupts = 0;

// The folder of this executable (where bin/plumb.js is), symbolic links resolved; "" if unknown.
std::string OwnFolder() {
  std::string self;
#ifdef __APPLE__
  uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);
  std::vector<char> path(size + 1);
  if (_NSGetExecutablePath(path.data(), &size) != 0) return "";
  char resolved[PATH_MAX];
  if (!realpath(path.data(), resolved)) return "";
  self = resolved;
#else
  std::vector<char> path(PATH_MAX);
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return "";
  self.assign(path.data(), static_cast<size_t>(length));
#endif
  const size_t slash = self.rfind('/');
  return slash == std::string::npos ? "" : self.substr(0, slash);
}

// os.homedir(): $HOME when set, else the user database.
std::string HomeDir() {
  if (const char* home = std::getenv("HOME")) return home;
  const struct passwd* user = getpwuid(getuid());
  return user && user->pw_dir ? user->pw_dir : "";
}

// path.join for the two or three parts the state folder is made of.
std::string Join(const std::string& base, const std::string& name) {
  if (base.empty()) return name;
  return base.back() == '/' ? base + name : base + "/" + name;
}

void OnSignal(int) {
  g_interrupts = g_interrupts + 1;
  if (g_interrupts > 1) _exit(130);
  if (g_cancel) g_cancel->cancelled.store(true);
}

void WriteAll(int fd, const char* data, size_t bytes) {
  while (bytes > 0) {
    const ssize_t done = write(fd, data, bytes);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return;  // a closed pipe: nothing more can be said
    data += done;
    bytes -= static_cast<size_t>(done);
  }
}

}  // namespace

int HandOff() {
  const char* chosen = std::getenv("PLUMB_NODE");
  const std::string node = chosen && *chosen ? chosen : "node";
  const std::string script = Join(OwnFolder(), "plumb.js");
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(node.c_str()));
  argv.push_back(const_cast<char*>(script.c_str()));
  for (char** arg = g_argv + 1; *arg; ++arg) argv.push_back(*arg);
  argv.push_back(nullptr);
  FlushOut();
  signal(SIGPIPE, SIG_DFL);  // as the OS gave it (main ignored it for the scan)
  execvp(node.c_str(), argv.data());
  WriteErr("plumb: cannot start Node.js (" + node + ": " + std::strerror(errno) +
           "). Install Node.js 20 or later, or set PLUMB_NODE to the node program.\n");
  return 1;
}

std::string JournalDir() {
  std::string state;
  const char* chosen = std::getenv("PLUMB_STATE_DIR");
  if (chosen && *chosen) {
    state = chosen;
  } else {
#ifdef __APPLE__
    state = Join(Join(HomeDir(), "Library/Application Support"), "Plumb");
#else
    // XDG_STATE_HOME ?? ~/.local/state: set but empty still counts, as with `??`.
    const char* xdg = std::getenv("XDG_STATE_HOME");
    state = Join(xdg ? std::string(xdg) : Join(HomeDir(), ".local/state"), "plumb");
#endif
  }
  return Join(state, "space-journal");
}

bool FolderHasEntries(const std::string& dir) {
  DIR* folder = opendir(dir.c_str());
  if (!folder) return false;
  bool found = false;
  while (const struct dirent* entry = readdir(folder)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      found = true;
      break;
    }
  }
  closedir(folder);
  return found;
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

void CancelOnInterrupt(CancelFlag* flag) {
  g_cancel = flag;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void WriteOut(const char* data, size_t bytes) { std::fwrite(data, 1, bytes, stdout); }

void WriteErr(const std::string& text) { WriteAll(STDERR_FILENO, text.data(), text.size()); }

void FlushOut() { std::fflush(stdout); }

}  // namespace front
}  // namespace plumb

int main(int argc, char** argv) {
  plumb::front::g_argv = argv;
#ifdef __GLIBC__
  // Peak memory is what this program is for (bench:space on 20k files, against fclones' 13.6 MB):
  // the 1 MiB read buffers stay mapped on their own and go back to the OS when freed (glibc would
  // raise its mmap threshold after the first free and keep later buffers on the heap), and the few
  // helper threads share two malloc arenas instead of one each. 15.7 MB before, 12.6 MB after.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_ARENA_MAX, 2);
#endif
  // Writing to a closed pipe ends the output quietly (write fails) instead of killing the scan.
  signal(SIGPIPE, SIG_IGN);
  static char buffer[64 * 1024];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  return plumb::front::Run(std::vector<std::string>(argv + 1, argv + argc));
}
