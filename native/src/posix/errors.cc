// errno → the names Node uses for error codes, so JS sees the same codes as from node:fs.
#include <cerrno>
#include <cstring>

#include "plumb.h"

namespace plumb {

std::string ErrorCodeName(long osError) {
  switch (osError) {
    case 0: return "EUNKNOWN";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EIO: return "EIO";
    case EBADF: return "EBADF";
    case ENOMEM: return "ENOMEM";
    case EACCES: return "EACCES";
    case EBUSY: return "EBUSY";
    case EEXIST: return "EEXIST";
    case EXDEV: return "EXDEV";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case EINVAL: return "EINVAL";
    case EMFILE: return "EMFILE";
    case ETXTBSY: return "ETXTBSY";
    case EFBIG: return "EFBIG";
    case ENOSPC: return "ENOSPC";
    case EROFS: return "EROFS";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENOSYS: return "ENOSYS";
    case ENOTSUP: return "ENOTSUP";
#if EOPNOTSUPP != ENOTSUP
    case EOPNOTSUPP: return "EOPNOTSUPP";
#endif
    case ENXIO: return "ENXIO";
    case ESPIPE: return "ESPIPE";
    case EINTR: return "EINTR";
    case EAGAIN: return "EAGAIN";
    case ELOOP: return "ELOOP";
    case EDQUOT: return "EDQUOT";
    case ECANCELED: return "ECANCELED";
    default: return "E" + std::to_string(osError);
  }
}

std::string ErrorMessage(long osError) {
  if (osError == 0) return "unknown error";
  if (osError == ECANCELED) return "operation cancelled";
  return std::strerror(static_cast<int>(osError));
}

}  // namespace plumb
