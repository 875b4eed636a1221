// Linux: io_uring first, then libaio, where each was found at build time and works at runtime.
#include "linux/queue_engines.h"

namespace plumb {

const std::vector<const QueueEngine*>& PlatformQueueEngines() {
  static const std::vector<const QueueEngine*> engines = {
#ifdef PLUMB_HAVE_LIBURING
      &kUringEngine,
#endif
#ifdef PLUMB_HAVE_LIBAIO
      &kAioEngine,
#endif
  };
  return engines;
}

}  // namespace plumb
