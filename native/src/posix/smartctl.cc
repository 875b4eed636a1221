// Runs smartctl without a shell (posix_spawnp) and picks the current temperature out of its JSON.
#include "posix/smartctl.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "io.h"

extern char** environ;

namespace plumb {
namespace {

constexpr int kTimeoutMs = 5000;

std::optional<std::string> RunCapture(const std::string& device) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const char* argv[] = {"smartctl", "-j", "-A", device.c_str(), nullptr};
  pid_t pid = 0;
  int rc =
      posix_spawnp(&pid, "smartctl", &actions, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  if (rc != 0) {
    close(pipeFds[0]);
    return std::nullopt;
  }
  std::string output;
  const uint64_t deadline = MonotonicNanos() + uint64_t{kTimeoutMs} * 1000000;
  char chunk[4096];
  bool timedOut = false;
  for (;;) {
    const uint64_t now = MonotonicNanos();
    if (now >= deadline) {
      timedOut = true;
      break;
    }
    pollfd pfd{pipeFds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>((deadline - now) / 1000000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timedOut = ready == 0;
      break;
    }
    ssize_t n = read(pipeFds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(chunk, static_cast<size_t>(n));
    if (output.size() > (1u << 20)) break;
  }
  close(pipeFds[0]);
  if (timedOut) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut) return std::nullopt;
  return output;
}

}  // namespace

std::optional<double> SmartctlTemperature(const std::string& device) {
  if (device.empty() || device[0] != '/') return std::nullopt;
  std::optional<std::string> json = RunCapture(device);
  if (!json) return std::nullopt;
  // {"temperature": {"current": 41, ...}}: the top-level object smartctl prints for every drive
  // type.
  size_t at = json->find("\"temperature\"");
  if (at == std::string::npos) return std::nullopt;
  at = json->find("\"current\"", at);
  if (at == std::string::npos) return std::nullopt;
  at = json->find(':', at);
  if (at == std::string::npos) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(json->c_str() + at + 1, &end);
  if (end == json->c_str() + at + 1) return std::nullopt;
  return value;
}

}  // namespace plumb
