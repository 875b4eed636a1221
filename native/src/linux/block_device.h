// What sysfs says about the block device under a file system (Linux).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace plumb {

struct BlockDeviceFacts {
  std::string diskName;   // whole disk, e.g. "nvme0n1", "sda"; empty when not a block device
  std::string diskSysfs;  // /sys/block/<diskName>
  std::optional<uint32_t> logicalBlockSize;
  std::optional<bool> rotational;
  std::optional<std::string> bus;
  std::optional<std::string> medium;
  std::optional<bool> internal;
};

// The whole disk holding device `dev` (partitions and device-mapper/md stacks followed down).
BlockDeviceFacts DescribeBlockDevice(dev_t dev);

}  // namespace plumb
