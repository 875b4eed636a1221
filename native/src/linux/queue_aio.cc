// Linux AIO queue-depth engine ("libaio" as fio calls it): io_submit/io_getevents with `depth`
// requests in flight. The system calls are made directly, so the addon needs no libaio.so at
// runtime. Truly asynchronous only with O_DIRECT, so it is offered for direct I/O only.
#ifdef PLUMB_HAVE_LIBAIO
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "io.h"
#include "linux/queue_engines.h"

namespace plumb {
namespace {

// The kernel's AIO calls; like libaio's wrappers they return a count or -errno.
int AioSetup(unsigned entries, aio_context_t* ctx) {
  return syscall(SYS_io_setup, entries, ctx) < 0 ? -errno : 0;
}
void AioDestroy(aio_context_t ctx) { syscall(SYS_io_destroy, ctx); }
int AioSubmit(aio_context_t ctx, long count, iocb** blocks) {
  long n = syscall(SYS_io_submit, ctx, count, blocks);
  return n < 0 ? -errno : static_cast<int>(n);
}
int AioGetEvents(aio_context_t ctx, long min, long max, io_event* events) {
  long n = syscall(SYS_io_getevents, ctx, min, max, events, nullptr);
  return n < 0 ? -errno : static_cast<int>(n);
}

void Prepare(iocb* block, bool write, int fd, void* data, uint32_t bytes, uint64_t offset,
             uint32_t slot) {
  *block = iocb{};
  block->aio_lio_opcode = write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
  block->aio_fildes = static_cast<uint32_t>(fd);
  block->aio_buf = reinterpret_cast<uintptr_t>(data);
  block->aio_nbytes = bytes;
  block->aio_offset = static_cast<int64_t>(offset);
  block->aio_data = slot;
}

bool Available(bool direct) {
  static const bool works = [] {
    aio_context_t ctx = 0;
    if (AioSetup(2, &ctx) != 0) return false;
    AioDestroy(ctx);
    return true;
  }();
  return direct && works;
}

bool Run(QueueJob& job, QueueWorker& worker, SysError* err) {
  const QueueRequest& request = job.request();
  const int fd = static_cast<int>(job.file().handle());
  aio_context_t ctx = 0;
  int rc = AioSetup(worker.depth, &ctx);
  if (rc < 0) {
    *err = MakeSysError(-rc, "io_setup", request.path);
    return false;
  }
  std::vector<iocb> blocks(worker.depth);
  std::vector<iocb*> pending;
  std::vector<io_event> events(worker.depth);
  std::vector<uint64_t> startedAt(worker.depth, 0);
  uint32_t inFlight = 0;
  bool failed = false;
  auto fail = [&](int code, const char* syscall) {
    if (!failed)
      *err = code ? MakeSysError(code, syscall, request.path)
                  : MakeError("EIO", syscall, request.path,
                              "short transfer: the test file is shorter than fileBytes");
    failed = true;
    job.Stop();
  };
  auto prepare = [&](uint32_t slot) {
    uint64_t offset = 0;
    if (failed || !job.Claim(worker, &offset)) return;
    uint8_t* data = worker.buffers[slot].data();
    job.PrepareBuffer(worker, data);
    Prepare(&blocks[slot], request.write, fd, data, request.blockSize, offset, slot);
    pending.push_back(&blocks[slot]);
  };
  auto submit = [&] {
    size_t done = 0;
    const uint64_t now = MonotonicNanos();
    for (iocb* b : pending) startedAt[b->aio_data] = now;
    while (done < pending.size()) {
      int n = AioSubmit(ctx, static_cast<long>(pending.size() - done), pending.data() + done);
      if (n == -EINTR || n == -EAGAIN) continue;
      if (n <= 0) {
        fail(n < 0 ? -n : EIO, "io_submit");
        break;
      }
      done += static_cast<size_t>(n);
      inFlight += static_cast<uint32_t>(n);
    }
    pending.clear();
  };

  for (uint32_t slot = 0; slot < worker.depth; ++slot) prepare(slot);
  submit();
  // One completion at a time, its slot refilled and submitted at once, as fio does by default
  // (iodepth_batch_submit=1, iodepth_batch_complete_max=1): reaping every ready completion and
  // resubmitting them together measured 15 % fewer 4K QD32 IOPS than fio on a virtio disk.
  while (inFlight > 0) {
    int n = AioGetEvents(ctx, 1, 1, events.data());
    if (n == -EINTR) continue;
    if (n < 0) {
      fail(-n, "io_getevents");
      break;
    }
    const uint64_t now = MonotonicNanos();
    for (int i = 0; i < n; ++i) {
      --inFlight;
      const auto slot = static_cast<uint32_t>(events[i].data);
      const long result = static_cast<long>(events[i].res);
      if (result < 0)
        fail(static_cast<int>(-result), request.write ? "write" : "read");
      else if (static_cast<uint32_t>(result) != request.blockSize)
        fail(0, request.write ? "write" : "read");
      else {
        job.Complete(worker, now - startedAt[slot]);
        prepare(slot);
      }
    }
    if (!pending.empty()) submit();
  }
  AioDestroy(ctx);
  return !failed;
}

}  // namespace

const QueueEngine kAioEngine = {"libaio", Available, Run, false};

}  // namespace plumb
#endif  // PLUMB_HAVE_LIBAIO
