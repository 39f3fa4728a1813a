// Settings of the learner (training/trainer.h): data with defaults and Validate() with the
// allowed ranges: one table of settings (training_config.cpp), which
// config/config_training.cpp reads (section `training`). Torch-free.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "util/result.h"
#include "util/settings_table.h"

namespace veletas::training {

enum class Optimizer { kSgd, kAdamW };
enum class LrSchedule { kConstant, kStep, kCosine };
// The arithmetic of the forward and backward pass (training/train_precision.h).
enum class TrainPrecision { kAuto, kFp32, kBf16 };
// The implementation of the training step (training/train_precision.h ChooseTrainEngine).
enum class TrainEngine { kAuto, kOnednn, kTorch };
// Their names in config files: "sgd", "adamw"; "constant", "step", "cosine"; "auto", "fp32",
// "bf16";
// "auto", "onednn", "torch".
inline constexpr util::Choice<Optimizer> kOptimizerChoices[] = {{Optimizer::kSgd, "sgd"},
                                                                {Optimizer::kAdamW, "adamw"}};
inline constexpr util::Choice<LrSchedule> kLrScheduleChoices[] = {
    {LrSchedule::kConstant, "constant"},
    {LrSchedule::kStep, "step"},
    {LrSchedule::kCosine, "cosine"}};
inline constexpr util::Choice<TrainPrecision> kTrainPrecisionChoices[] = {
    {TrainPrecision::kAuto, "auto"},
    {TrainPrecision::kFp32, "fp32"},
    {TrainPrecision::kBf16, "bf16"}};
inline constexpr util::Choice<TrainEngine> kTrainEngineChoices[] = {
    {TrainEngine::kAuto, "auto"}, {TrainEngine::kOnednn, "onednn"}, {TrainEngine::kTorch, "torch"}};

struct TrainingConfig {
  // --- Optimisation. ---
  int batch_size = 256;
  Optimizer optimizer = Optimizer::kSgd;
  double learning_rate = 0.02;  // the base rate (before warm-up and schedule)
  // SGD: momentum. AdamW: beta1 (beta2 is 0.999, eps 1e-8).
  double momentum = 0.9;
  bool nesterov = true;  // SGD only
  // SGD: L2 regularisation, weight_decay * w added to every gradient (the loss term
  // weight_decay / 2 * |w|^2). AdamW: decoupled decay, w -= lr * weight_decay * w.
  double weight_decay = 1e-4;

  // --- Learning-rate schedule, a function of the global step s (training steps of all
  // generations so far; see training/lr_schedule.h). ---
  LrSchedule lr_schedule = LrSchedule::kConstant;
  // kStep: the rate is multiplied by lr_step_gamma at each of these global steps (increasing).
  std::vector<int64_t> lr_step_boundaries;
  double lr_step_gamma = 0.1;
  // kCosine: from learning_rate at the end of warm-up down to lr_min over lr_cosine_steps
  // steps, then lr_min.
  int64_t lr_cosine_steps = 100'000;
  double lr_min = 0.0;
  // Linear warm-up over the first warmup_steps global steps: rate * (s + 1) / warmup_steps.
  int64_t warmup_steps = 100;

  // --- Loss: policy cross-entropy + value_weight * value MSE + aux_weight * aux CE
  // (+ L2 through weight_decay). ---
  double value_weight = 1.0;
  // The value term: the squared error of the tanh output (false), or the cross-entropy of
  // the chance of winning, (tanh + 1) / 2 (true; model/torch/losses.h ValueCrossEntropy).
  bool value_cross_entropy = false;
  double aux_weight = 0.1;
  // Value target = (1 - w) * game outcome + w * search root value.
  double root_value_weight = 0.0;
  // Aux targets of resigned games: a shooter still unclaimed when a game was resigned is
  // labelled "nobody", though it might have been claimed had the game been played out; true
  // leaves such shooters out of the aux loss (the sample's other targets stay).
  bool aux_ignore_resigned = false;

  // --- Replay window (training/replay_window.h): the newest W(N) samples of the N seen,
  // W(N) = N for N <= window_min, else
  // min(window_max, window_min * (1 + window_growth * ((N / window_min)^window_exponent - 1)
  //                                    / window_exponent)).
  int64_t window_min = 50'000;
  int64_t window_max = 500'000;
  double window_exponent = 0.75;
  double window_growth = 0.4;

  // --- Steps per generation. Each call may train on max_sample_reuse samples per new
  // sample ingested (sampling is uniform over the window, so a sample is used
  // max_sample_reuse times on average over its stay in the window); unused allowance is
  // carried to the next call. At most max_steps_per_generation steps per call (excess
  // allowance is dropped). ---
  double max_sample_reuse = 4.0;
  int64_t max_steps_per_generation = 2000;

  // --- Arithmetic. kBf16: convolutions (and LibTorch's matrix products) in bf16; the master
  // weights, the optimiser state, batch norms and the losses stay fp32. Falls back to fp32 with
  // a message on a CPU without AVX-512 BF16. kAuto: bf16 on the oneDNN engine of a CPU with
  // AVX-512 BF16, else fp32; stderr says which (ChooseTrainPrecision). ---
  TrainPrecision precision = TrainPrecision::kAuto;
  // kTorch: LibTorch's ops (the reference; the GPU path). kOnednn: the trunk (stem and
  // residual blocks) and the heads' convolutions through oneDNN's training primitives, the
  // rest of the heads in C++ (model/onednn/), the losses and optimiser in LibTorch; batches of
  // one board size on the CPU (a batch with boards smaller than its canvas takes LibTorch's
  // ops).
  // kAuto: kOnednn where the CPU has AVX-512, else kTorch; stderr says what it chose and why
  // (ChooseTrainEngine). ---
  TrainEngine engine = TrainEngine::kAuto;

  // --- Bookkeeping. ---
  int64_t checkpoint_every = 500;  // steps between resumable training-state files
  int64_t metrics_every = 100;     // steps per metrics.jsonl line
  int threads = 0;                 // Torch intra-op threads; 0 = all cores
  int prefetch_batches = 2;        // batches the loader thread prepares ahead
  uint64_t seed = 1;               // sampling and augmentation stream

  // The settings above, one row each (key, member, range, help; training_config.cpp).
  static std::span<const util::Field<TrainingConfig>> Fields();
  // Ok when usable, else the setting that is not (bad input, "learning_rate: 0 is out of
  // range (0, 10]"): the rows of Fields(), then the rules between settings. TrainGeneration
  // refuses a config that is not.
  util::Status Validate() const;
};

}  // namespace veletas::training
