// The portable queue-depth engine: one thread per request in flight, each doing pread/pwrite
// (ReadFile/WriteFile on Windows) in a loop.
#include "io.h"

namespace plumb {
namespace {

bool Available(bool) { return true; }

bool Run(QueueJob& job, QueueWorker& worker, SysError* err) {
  IoFile& file = job.file();
  const uint32_t blockSize = job.request().blockSize;
  uint8_t* data = worker.buffers[0].data();
  uint64_t offset = 0;
  while (job.Claim(worker, &offset)) {
    job.PrepareBuffer(worker, data);
    const uint64_t started = MonotonicNanos();
    if (job.request().write) {
      if (!file.WriteAt(data, blockSize, offset, err)) return false;
    } else {
      size_t done = 0;
      if (!file.ReadAt(data, blockSize, offset, &done, err)) return false;
      if (done != blockSize) {
        *err = MakeError("EIO", "read", file.path(), "the test file is shorter than fileBytes");
        return false;
      }
    }
    job.Complete(worker, MonotonicNanos() - started);
  }
  return true;
}

}  // namespace

const QueueEngine kThreadsEngine = {"threads", Available, Run, true};

}  // namespace plumb
