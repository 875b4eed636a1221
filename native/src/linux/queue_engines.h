// The Linux queue-depth engines compiled into this build (see native/probe-io.cjs).
#pragma once

#include "io.h"

namespace plumb {

#ifdef PLUMB_HAVE_LIBURING
extern const QueueEngine kUringEngine;
#endif
#ifdef PLUMB_HAVE_LIBAIO
extern const QueueEngine kAioEngine;
#endif

}  // namespace plumb
