#include "model/torch/losses.h"

namespace veletas::model {

namespace {

torch::Tensor CrossEntropy(const torch::Tensor& log_p, const torch::Tensor& target) {
  return -(target * log_p).sum(1).mean();
}

}  // namespace

torch::Tensor MaskedLogSoftmax(const torch::Tensor& logits, const torch::Tensor& legal) {
  const torch::Tensor illegal = legal.logical_not();
  const torch::Tensor masked = logits.masked_fill(illegal, -std::numeric_limits<float>::infinity());
  // Zero the -inf log-probabilities of illegal actions so 0 * -inf cannot give NaN.
  return torch::log_softmax(masked, 1).masked_fill(illegal, 0);
}

torch::Tensor PolicyLoss(const torch::Tensor& logits, const torch::Tensor& target,
                         const torch::Tensor& legal) {
  return CrossEntropy(MaskedLogSoftmax(logits, legal), target);
}

torch::Tensor ValueLoss(const torch::Tensor& value, const torch::Tensor& target) {
  return (value - target).square().mean();
}

torch::Tensor ValueCrossEntropy(const torch::Tensor& value_logit, const torch::Tensor& target) {
  return torch::binary_cross_entropy_with_logits(2 * value_logit, (target + 1) / 2);
}

torch::Tensor AuxLoss(const torch::Tensor& aux_logits, const torch::Tensor& target) {
  const torch::Tensor valid = target.ge(0);
  const torch::Tensor count = valid.sum().clamp_min(1).to(aux_logits.scalar_type());
  const torch::Tensor log_p = torch::log_softmax(aux_logits, 1);  // [B, 3, M, M]
  const torch::Tensor picked = log_p.gather(1, target.clamp_min(0).unsqueeze(1)).squeeze(1);
  return -(picked * valid.to(log_p.scalar_type())).sum() / count;
}

Losses ComputeLosses(const NetOutput& out, const Targets& targets, const LossWeights& weights) {
  Losses l;
  l.policy_log_p = MaskedLogSoftmax(out.policy, targets.legal);
  l.policy = CrossEntropy(l.policy_log_p, targets.policy);
  l.value = weights.value_cross_entropy ? ValueCrossEntropy(out.value_logit, targets.value)
                                        : ValueLoss(out.value, targets.value);
  l.aux = AuxLoss(out.aux, targets.aux);
  l.total = weights.policy * l.policy + weights.value * l.value + weights.aux * l.aux;
  return l;
}

torch::Tensor PolicyTargetEntropy(const torch::Tensor& target) {
  const torch::Tensor safe = target.clamp_min(1e-30);
  return -(target * safe.log()).sum(1).mean();
}

}  // namespace veletas::model
