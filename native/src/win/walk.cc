// ListFolder on Windows answers ENOTSUP by design: volume serial numbers and file ids need a handle
// per file, so app/core/space/walk.ts lists with Node's fs (which opens one) when it sees ENOTSUP.
#include "walk.h"

namespace plumb {

bool ListFolder(const std::string& dir, std::vector<FolderEntry>*, SysError* err) {
  *err = SysError{"ENOTSUP", "listFolders", dir, "listing folders natively is not supported here"};
  return false;
}

}  // namespace plumb
