#include "model/torch/export.h"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/base/features.h"
#include "model/torch/fold_weights.h"
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

// "torch.conv2d(<x>, self.<prefix>_weight, self.<prefix>_bias, ...)": a convolution whose
// batch norm is folded into its weight and bias (FoldConvBn), "same" padding.
std::string Conv(const std::string& x, const std::string& prefix, int pad) {
  const std::string p = "self." + ScriptName(prefix);
  const std::string pd = std::to_string(pad);
  return "torch.conv2d(" + x + ", " + p + "_weight, " + p + "_bias, [1, 1], [" + pd + ", " + pd +
         "], [1, 1], 1)";
}

std::string ScriptSource(const NetConfig& arch) {
  std::ostringstream s;
  s << "def pool(self, x: Tensor, mask: Tensor) -> Tensor:\n"
       "    area = mask.sum([1, 2, 3]).unsqueeze(1)\n"
       "    mean = x.sum([2, 3]) / area\n"
       "    mx = x.amax([2, 3])\n"
       "    scale = (area.sqrt() - 8.5) / 1.5\n"
       "    return torch.cat([mean, mx, mean * scale], 1)\n"
       "\n"
       "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor, Tensor]:\n"
       "    mask = x.narrow(1, "
    << kPlaneMask << ", 1)\n"
    << "    t = torch.relu(" << Conv("x", "stem", 1) << ") * mask\n";
  for (int i = 0; i < arch.blocks; ++i) {
    const std::string b = "block" + std::to_string(i);
    s << "    h = torch.relu(" << Conv("t", b + ".a", 1) << ") * mask\n"
      << "    t = torch.relu(t + " << Conv("h", b + ".b", 1) << ") * mask\n";
  }
  s << "    p = torch.relu(" << Conv("t", "policy_conv", 0) << ") * mask\n"
    << "    squares = " << Conv("p", "policy_out", 0) << ".flatten(1)\n"
    << "    pass_logit = torch.addmm(self.pass_fc_bias, self.pool(p, mask), "
       "self.pass_fc_weight.t())\n"
    << "    policy = torch.cat([squares, pass_logit], 1)\n"
    << "    v = torch.relu(" << Conv("t", "value_conv", 0) << ") * mask\n"
    << "    v = torch.relu(torch.addmm(self.value_fc1_bias, self.pool(v, mask), "
       "self.value_fc1_weight.t()))\n"
    << "    value = torch.tanh(torch.addmm(self.value_fc2_bias, v, self.value_fc2_weight.t()))"
       ".squeeze(1)\n"
    << "    a = torch.relu(" << Conv("t", "aux_conv", 0) << ") * mask\n"
    << "    aux = " << Conv("a", "aux_out", 0) << "\n"
    << "    return policy, value, aux\n";
  return s.str();
}

torch::Tensor ToTensor(const std::vector<float>& v, c10::IntArrayRef shape) {
  return torch::tensor(v, torch::kFloat).reshape(shape).clone();
}

}  // namespace

torch::jit::Module BuildScriptModule(const VeletasNet& net) {
  torch::NoGradGuard no_grad;
  torch::jit::Module module("VeletasNet");
  auto add = [&](const std::string& name, const torch::Tensor& t) {
    module.register_parameter(ScriptName(name), t.detach().to(torch::kCPU).clone(), false);
  };
  auto add_folded = [&](const std::string& name, const ConvBn& layer) {
    const FoldedConv f = FoldConvBn(layer);
    add(name + "_weight", ToTensor(f.weight, {f.out, f.in, f.kernel, f.kernel}));
    add(name + "_bias", ToTensor(f.bias, {f.out}));
  };
  add_folded("stem", net->stem);
  for (size_t i = 0; i < net->blocks.size(); ++i) {
    add_folded("block" + std::to_string(i) + ".a", net->blocks[i]->a);
    add_folded("block" + std::to_string(i) + ".b", net->blocks[i]->b);
  }
  add_folded("policy_conv", net->policy_conv);
  add_folded("value_conv", net->value_conv);
  add_folded("aux_conv", net->aux_conv);
  const std::pair<const char*, const torch::nn::Module*> plain[] = {
      {"policy_out", net->policy_out.get()},
      {"aux_out", net->aux_out.get()},
      {"pass_fc", net->pass_fc.get()},
      {"value_fc1", net->value_fc1.get()},
      {"value_fc2", net->value_fc2.get()}};
  for (const auto& [name, layer] : plain) {
    for (const auto& p : layer->named_parameters())
      add(std::string(name) + "_" + p.key(), p.value());
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
  // No `extra`: the run's training bookkeeping (sample files with their paths) is not the
  // exported network's business (ShippedMeta).
  j["usage"] =
      "module = torch.jit.load('model.pt'); policy_logits, value, aux_logits = module(x). "
      "Run in eval mode under torch.no_grad(). Each batch norm is folded into the convolution "
      "before it (running statistics; the graph has convolutions with bias, ReLU, additions).";
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
