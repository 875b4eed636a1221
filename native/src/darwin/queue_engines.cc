// macOS has no asynchronous file I/O worth using (POSIX AIO is thread-backed and capped), so
// queue-depth runs use the portable threads engine.
#include "io.h"

namespace plumb {

const std::vector<const QueueEngine*>& PlatformQueueEngines() {
  static const std::vector<const QueueEngine*> engines;
  return engines;
}

}  // namespace plumb
