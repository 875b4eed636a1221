// StartDetachedThread on Linux and macOS: a std::thread, detached.
#include <system_error>
#include <thread>
#include <utility>

#include "plumb.h"

namespace plumb {

bool StartDetachedThread(std::function<void()> work) {
  try {
    std::thread(std::move(work)).detach();
    return true;
  } catch (const std::system_error&) {
    return false;  // out of threads: the caller says so
  }
}

}  // namespace plumb
