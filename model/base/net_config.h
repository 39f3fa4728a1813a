// Architecture and runtime settings of the policy/value network: data with defaults, one
// table of settings and Validate() (net_config.cpp), and the names of the device and the
// inference precision. No Torch.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::model {

// Where the network runs.
enum class Device {
  kCpu,
  kCuda,  // a failure where CUDA is unavailable
  kAuto,  // CUDA when available, else the CPU
};
// Their names (config files, command lines): "cpu", "cuda", "auto".
inline constexpr util::Choice<Device> kDeviceChoices[] = {
    {Device::kCpu, "cpu"}, {Device::kCuda, "cuda"}, {Device::kAuto, "auto"}};

// The arithmetic of CPU inference (model/onednn/cpu_network.h): a setting (kAuto: int8 where
// the CPU has VNNI and int8 agrees with fp32, else fp32) or what an evaluator runs at (never
// kAuto). kTorch is the training path through LibTorch, the reference the others are measured
// against; CUDA devices always run it.
enum class InferencePrecision { kAuto, kFp32, kBf16, kInt8, kTorch };
// The one mapping between the precisions and their names, used by config files, command
// lines, the cluster's wire format (a worker's games say the precision they were played at)
// and messages: "auto", "fp32", "bf16", "int8", "torch".
inline constexpr util::Choice<InferencePrecision> kInferencePrecisionChoices[] = {
    {InferencePrecision::kAuto, "auto"},
    {InferencePrecision::kFp32, "fp32"},
    {InferencePrecision::kBf16, "bf16"},
    {InferencePrecision::kInt8, "int8"},
    {InferencePrecision::kTorch, "torch"}};

// "cpu", "cuda", "auto".
const char* DeviceName(Device d);
// The device named `name`, or nullopt.
std::optional<Device> ParseDevice(std::string_view name);
// "auto", "fp32", "bf16", "int8", "torch".
const char* InferencePrecisionName(InferencePrecision p);
// The precision named `name`, or nullopt.
std::optional<InferencePrecision> ParseInferencePrecision(std::string_view name);
// The names of the precisions and of the devices, in order (for command-line checks).
inline const std::vector<std::string> kInferencePrecisions =
    util::ChoiceNames<InferencePrecision>(kInferencePrecisionChoices);
inline const std::vector<std::string> kDevices = util::ChoiceNames<Device>(kDeviceChoices);

struct NetConfig {
  // --- Architecture (stored in checkpoints; a checkpoint loads only into the same). ---
  int blocks = 6;          // residual blocks
  int channels = 64;       // channels per convolution of the trunk
  int head_channels = 32;  // 1x1-convolution channels of the policy, value and aux heads
  int value_hidden = 128;  // hidden units of the value head's fully connected layer
  // --- Runtime (not part of the architecture). ---
  Device device = Device::kCpu;
  int threads = 0;  // intra-op CPU threads; 0 = all cores
  // CPU inference precision; CUDA devices always run the LibTorch path.
  InferencePrecision inference_precision = InferencePrecision::kAuto;

  // True when the architecture fields are equal (runtime fields are ignored).
  bool SameArchitecture(const NetConfig& o) const {
    return blocks == o.blocks && channels == o.channels && head_channels == o.head_channels &&
           value_hidden == o.value_hidden;
  }

  // The settings of section `model`, one row each (key, member, range, help; net_config.cpp).
  static std::span<const util::Field<NetConfig>> Fields();
  // Ok when usable (the rows of Fields()), else the setting that is not.
  util::Status Validate() const;
};

}  // namespace veletas::model
