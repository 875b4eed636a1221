// Linux and macOS keep their Trash in folders, which app/core/space/trash-can.ts moves files into
// by renaming; only Windows needs the shell (win/recycle.cc).
#include "space.h"

namespace plumb {

bool RecycleFile(const std::string& path, RecycledFile*, SysError* err) {
  *err = SysError{"ENOTSUP", "recycleFile", path,
                  "The Recycle Bin is Windows'; on this OS files go to the Trash folder."};
  return false;
}

}  // namespace plumb
