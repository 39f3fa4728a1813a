#include "model/export.h"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/features.h"
#include "rules/notation.h"

namespace veletas::model {
namespace {

constexpr int kExportFormatVersion = 1;

std::string ScriptName(const std::string& name) {
  std::string s = name;
  for (char& c : s) {
    if (c == '.') c = '_';
  }
  return s;
}

// "self.<prefix>_conv_weight, self.<prefix>_bn_weight, ..." for a ConvBn named `prefix`.
std::string ConvBnArgs(const std::string& prefix) {
  const std::string p = "self." + ScriptName(prefix);
  return p + "_conv_weight, " + p + "_bn_weight, " + p + "_bn_bias, " + p + "_bn_running_mean, " +
         p + "_bn_running_var";
}

std::string ScriptSource(const NetConfig& arch) {
  std::ostringstream s;
  s << "def conv_bn(self, x: Tensor, w: Tensor, g: Tensor, b: Tensor, rm: Tensor, rv: Tensor,"
       " pad: int) -> Tensor:\n"
       "    y = torch.conv2d(x, w, None, [1, 1], [pad, pad], [1, 1], 1)\n"
       "    return torch.batch_norm(y, g, b, rm, rv, False, 0.1, 1e-05, False)\n"
       "\n"
       "def pool(self, x: Tensor, mask: Tensor) -> Tensor:\n"
       "    area = mask.sum([1, 2, 3]).unsqueeze(1)\n"
       "    mean = x.sum([2, 3]) / area\n"
       "    mx = x.amax([2, 3])\n"
       "    scale = (area.sqrt() - 8.5) / 1.5\n"
       "    return torch.cat([mean, mx, mean * scale], 1)\n"
       "\n"
       "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor, Tensor]:\n"
       "    mask = x.narrow(1, "
    << kPlaneMask
    << ", 1)\n"
       "    t = torch.relu(self.conv_bn(x, "
    << ConvBnArgs("stem") << ", 1)) * mask\n";
  for (int i = 0; i < arch.blocks; ++i) {
    const std::string b = "block" + std::to_string(i);
    s << "    h = torch.relu(self.conv_bn(t, " << ConvBnArgs(b + ".a") << ", 1)) * mask\n"
      << "    t = torch.relu(t + self.conv_bn(h, " << ConvBnArgs(b + ".b") << ", 1)) * mask\n";
  }
  s << "    p = torch.relu(self.conv_bn(t, " << ConvBnArgs("policy_conv") << ", 0)) * mask\n"
    << "    squares = torch.conv2d(p, self.policy_out_weight, self.policy_out_bias, [1, 1], "
       "[0, 0], [1, 1], 1).flatten(1)\n"
    << "    pass_logit = torch.addmm(self.pass_fc_bias, self.pool(p, mask), "
       "self.pass_fc_weight.t())\n"
    << "    policy = torch.cat([squares, pass_logit], 1)\n"
    << "    v = torch.relu(self.conv_bn(t, " << ConvBnArgs("value_conv") << ", 0)) * mask\n"
    << "    v = torch.relu(torch.addmm(self.value_fc1_bias, self.pool(v, mask), "
       "self.value_fc1_weight.t()))\n"
    << "    value = torch.tanh(torch.addmm(self.value_fc2_bias, v, self.value_fc2_weight.t()))"
       ".squeeze(1)\n"
    << "    a = torch.relu(self.conv_bn(t, " << ConvBnArgs("aux_conv") << ", 0)) * mask\n"
    << "    aux = torch.conv2d(a, self.aux_out_weight, self.aux_out_bias, [1, 1], [0, 0], "
       "[1, 1], 1)\n"
    << "    return policy, value, aux\n";
  return s.str();
}

}  // namespace

torch::jit::Module BuildScriptModule(const VeletasNet& net) {
  torch::jit::Module module("VeletasNet");
  std::set<std::string> seen;
  for (const auto& p : net->named_parameters(/*recurse=*/true)) {
    const std::string name = ScriptName(p.key());
    TORCH_CHECK(seen.insert(name).second, "duplicate export name ", name);
    module.register_parameter(name, p.value().detach().to(torch::kCPU).clone(), false);
  }
  for (const auto& b : net->named_buffers(/*recurse=*/true)) {
    const std::string name = ScriptName(b.key());
    TORCH_CHECK(seen.insert(name).second, "duplicate export name ", name);
    module.register_buffer(name, b.value().detach().to(torch::kCPU).clone());
  }
  module.define(ScriptSource(net->arch()));
  module.eval();
  return module;
}

std::string DescribeExport(const CheckpointMeta& meta) {
  using nlohmann::json;
  json planes = json::array();
  for (int p = 0; p < kNumPlanes; ++p) {
    planes.push_back({{"index", p}, {"name", PlaneName(p)}, {"meaning", PlaneMeaning(p)}});
  }
  const int n = meta.size;
  json j;
  j["format"] = "veletas-zero TorchScript export";
  j["export_format_version"] = kExportFormatVersion;
  j["rules"] = rules::RuleSetName(meta.rules);
  j["size"] = n;
  j["architecture"] = {{"blocks", meta.arch.blocks},
                       {"channels", meta.arch.channels},
                       {"head_channels", meta.arch.head_channels},
                       {"value_hidden", meta.arch.value_hidden},
                       {"feature_version", meta.feature_version}};
  j["generation"] = meta.generation;
  j["training_steps"] = meta.training_steps;
  j["extra"] = meta.extra;
  j["usage"] =
      "module = torch.jit.load('model.pt'); policy_logits, value, aux_logits = module(x). "
      "Run in eval mode under torch.no_grad(); batch norm uses stored running statistics.";
  j["input"] = {
      {"name", "x"},
      {"dtype", "float32"},
      {"shape", {"B", kNumPlanes, "M", "M"}},
      {"canvas", "M is the canvas side, M >= size (normally M = size = " + std::to_string(n) +
                     "). The board occupies rows 0..size-1 and columns 0..size-1; row 0 is rank 1 "
                     "(Black's side), column 0 is file a; every plane is 0 outside the board, so a "
                     "smaller board padded into a larger canvas gives the same outputs."},
      {"perspective",
       "'own' is the colour to move at the pending sub-decision, 'opponent' the other"},
      {"planes", planes}};
  j["actions"] = {
      {"numbering",
       "policy index row * M + col is the square in that row and column (on a canvas of "
       "side M = size this equals the rules' action index, e.g. a1 = 0, b1 = 1, a2 = size); "
       "index M * M is the pass-like slot"},
      {"pass_slot",
       "at choose_shooter: no move (shoot from any unclaimed shooter without moving); at "
       "pie: swap colours; illegal at the other decisions"},
      {"sub_decisions",
       "a full turn is a sequence of sub-decisions, each a choice of one action: "
       "setup_shooter, setup_stone, pie, choose_shooter, destination, shot"},
      {"masking",
       "logits of illegal actions and of squares outside the board are meaningless: take "
       "the softmax over the legal actions only (plane legal_squares plus the pass slot "
       "where legal)"}};
  j["outputs"] = json::array(
      {{{"name", "policy_logits"},
        {"shape", {"B", "M*M+1"}},
        {"meaning", "unnormalised log-probabilities of the actions of the pending decision"}},
       {{"name", "value"},
        {"shape", {"B"}},
        {"meaning",
         "expected final result in (-1, 1) for the player making the pending decision "
         "(+1 = that player wins; Veletas has no draws)"}},
       {{"name", "aux_logits"},
        {"shape", {"B", 3, "M", "M"}},
        {"meaning",
         "for each square holding a shooter: logits of who will have claimed that shooter "
         "at the end of the game, relative to the player making the pending decision: class "
         "0 = the colour that player holds at the end of the game (it differs from the "
         "colour to move only before the pie decision's swap), 1 = the other colour, 2 = "
         "nobody; meaningless on other squares"}}});
  return j.dump(2) + "\n";
}

}  // namespace veletas::model
