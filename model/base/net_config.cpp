#include "model/base/net_config.h"

namespace veletas::model {
namespace {

const util::Field<NetConfig> kFields[] = {
    util::IntField("blocks", &NetConfig::blocks, 1, 40, "residual blocks"),
    util::IntField("channels", &NetConfig::channels, 8, 512, "channels of the trunk"),
    util::IntField("head_channels", &NetConfig::head_channels, 1, 256,
                   "channels of the policy, value and aux heads"),
    util::IntField("value_hidden", &NetConfig::value_hidden, 1, 1024,
                   "hidden units of the value head"),
    util::EnumField<&NetConfig::device, kDeviceChoices>("device", "cpu, cuda or auto"),
    util::IntField("threads", &NetConfig::threads, 0, 256, "intra-op CPU threads; 0 = all cores"),
    util::EnumField<&NetConfig::inference_precision, kInferencePrecisionChoices>(
        "inference_precision", "CPU inference: auto, fp32, bf16, int8 or torch"),
};

}  // namespace

const char* DeviceName(Device d) { return util::ChoiceName<Device>(kDeviceChoices, d); }

std::optional<Device> ParseDevice(std::string_view name) {
  return util::ChoiceValue<Device>(kDeviceChoices, name);
}

const char* InferencePrecisionName(InferencePrecision p) {
  return util::ChoiceName<InferencePrecision>(kInferencePrecisionChoices, p);
}

std::optional<InferencePrecision> ParseInferencePrecision(std::string_view name) {
  return util::ChoiceValue<InferencePrecision>(kInferencePrecisionChoices, name);
}

std::span<const util::Field<NetConfig>> NetConfig::Fields() { return kFields; }

util::Status NetConfig::Validate() const { return util::ValidateFields(*this); }

}  // namespace veletas::model
