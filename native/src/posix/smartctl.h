// Drive temperature from `smartctl -j -A DEVICE` (smartmontools), where it is installed.
#pragma once

#include <optional>
#include <string>

namespace plumb {

// °C as smartctl reports it ("temperature": {"current": N}); nullopt when smartctl is missing,
// cannot read the device (no privileges) or says nothing. Gives up after a few seconds.
std::optional<double> SmartctlTemperature(const std::string& device);

}  // namespace plumb
