// Windows drive temperature: not readable without administrator rights in general, so unknown.
#include "io.h"

namespace plumb {

bool ReadDriveTemperature(const std::string&, double*, SysError*) { return false; }

}  // namespace plumb
