// MakeSysError (plumb.h): plain C++, for the backends and engines that report a failed call.
#include "plumb.h"

namespace plumb {

SysError MakeSysError(long osError, const char* syscall, const std::string& path) {
  SysError err;
  err.code = ErrorCodeName(osError);
  err.syscall = syscall;
  err.path = path;
  err.message = ErrorMessage(osError);
  return err;
}

}  // namespace plumb
