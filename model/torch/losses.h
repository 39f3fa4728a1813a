// Loss functions for training the network (LibTorch). Include only from model/ and training/.
// All take canvas-indexed tensors as produced by VeletasNet (model/torch/network.h) and
// EncodeBatch (model/base/features.h). Pure functions; thread safety as Torch's.
#pragma once

#include <torch/torch.h>

#include "model/torch/network.h"

namespace veletas::model {

// log softmax of `logits` over the legal actions only, 0 on illegal actions (so that
// 0 * log p never gives NaN). logits: [B, A] float; legal: [B, A] bool, a legal action per row.
torch::Tensor MaskedLogSoftmax(const torch::Tensor& logits, const torch::Tensor& legal);

// Cross-entropy -sum_a target[a] * log softmax(logits)[a] with the softmax taken over the
// legal actions only (illegal logits masked out), averaged over the batch.
// logits, target: [B, A] float; legal: [B, A] bool. Preconditions: every row has a legal
// action; target is zero on illegal actions and sums to 1.
torch::Tensor PolicyLoss(const torch::Tensor& logits, const torch::Tensor& target,
                         const torch::Tensor& legal);

// Mean squared error between value [B] and target [B] (results in [-1, 1]).
torch::Tensor ValueLoss(const torch::Tensor& value, const torch::Tensor& target);

// Binary cross-entropy of the chance of winning, sigmoid(2 * value_logit) = (tanh + 1) / 2,
// against (target + 1) / 2, averaged over the batch (Veletas has no draws; a fractional
// target, e.g. mixed with a root value, is a soft label). value_logit, target: [B].
torch::Tensor ValueCrossEntropy(const torch::Tensor& value_logit, const torch::Tensor& target);

// Cross-entropy of the aux logits [B, 3, M, M] against target classes [B, M, M] (int64,
// data::Owner: 0 = the player to move ends up owning the shooter on that square, 1 =
// the opponent, 2 = nobody; -1 = no shooter, ignored), averaged over the shooter squares of
// the batch. Zero when the batch has no shooter square.
torch::Tensor AuxLoss(const torch::Tensor& aux_logits, const torch::Tensor& target);

// Training targets of one batch.
struct Targets {
  torch::Tensor policy;  // [B, M*M + 1] float
  torch::Tensor legal;   // [B, M*M + 1] bool
  torch::Tensor value;   // [B] float
  torch::Tensor aux;     // [B, M, M] int64, -1 where no shooter
};

struct LossWeights {
  double policy = 1.0;
  double value = 1.0;
  double aux = 0.1;  // the auxiliary head trains with a small weight
  // The value term: ValueCrossEntropy instead of ValueLoss (squared error).
  bool value_cross_entropy = false;
};

struct Losses {
  torch::Tensor total;  // weighted sum, the quantity to minimise
  torch::Tensor policy, value, aux;
  torch::Tensor policy_log_p;  // MaskedLogSoftmax of the policy logits, for statistics
};

// The three losses and their weighted sum.
Losses ComputeLosses(const NetOutput& out, const Targets& targets, const LossWeights& weights);

// The entropy of the policy targets, averaged over the batch: the lowest PolicyLoss can get.
torch::Tensor PolicyTargetEntropy(const torch::Tensor& target);

}  // namespace veletas::model
