#include "model/onednn/inference_net.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <oneapi/dnnl/dnnl.hpp>
#include <stdexcept>

#include "model/base/features.h"

namespace veletas::model {

namespace {

using dnnl::memory;
using Dt = memory::data_type;
using Tag = memory::format_tag;

// The trunk's activation type and layout and its weights' type.
struct Layout {
  Dt act;
  Tag tag;
  Dt weight;
};

// The layouts to try for a precision, fastest first, chosen by measurement
// (model/onednn/inference_net.h): blocked nChw16c is oneDNN's fastest fp32 and bf16
// layout here, but needs channel counts its kernels take (multiples of 16); int8 kernels
// for nChw16c are reference code and need nhwc.
std::vector<Layout> LayoutsOf(Precision p) {
  switch (p) {
    case Precision::kBf16:
      return {{Dt::bf16, Tag::nChw16c, Dt::bf16}, {Dt::bf16, Tag::nhwc, Dt::bf16}};
    case Precision::kInt8:
      return {{Dt::u8, Tag::nhwc, Dt::s8}};
    case Precision::kFp32:
      break;
  }
  return {{Dt::f32, Tag::nChw16c, Dt::f32}, {Dt::f32, Tag::nhwc, Dt::f32}};
}

// Scale of a u8 activation whose largest value is `max` (value = q / scale).
float ActivationScale(float max) { return max > 1e-6f ? 255.0f / max : 1.0f; }

// One convolution primitive with its weights prepared in the layout it asked for.
struct ConvStep {
  dnnl::convolution_forward prim;
  memory weights;
  memory bias;
  memory* src = nullptr;
  memory* dst = nullptr;
};

// How one convolution is wired: its weights, the scales of its source and destination
// activations (int8), whether it adds its destination (residual) and applies a ReLU.
struct ConvSpec {
  const FoldedConv* conv = nullptr;
  float src_scale = 1.0f;
  float dst_scale = 1.0f;       // 0: the destination is f32 (the heads)
  float residual_scale = 0.0f;  // int8 scale of the residual held in dst; 0: no residual
  bool relu = true;
};

}  // namespace

// Primitives and buffers for one (batch bucket, board size).
struct Plan {
  int batch = 0;
  int size = 0;
  memory input;  // f32 nchw planes
  memory x;      // the planes in the trunk's type and layout
  memory a;      // trunk activations (block input/output)
  memory b;      // trunk activations (inside a block)
  memory heads;  // f32 [batch][2 * head_channels][size][size] in the trunk's layout
  dnnl::reorder to_trunk;
  std::vector<ConvStep> steps;  // stem, trunk, heads
};

struct InferenceNet::Impl {
  InferenceWeights w;
  Precision precision = Precision::kFp32;
  Calibration calibration;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  std::map<std::pair<int, int>, std::unique_ptr<Plan>> plans;
  std::string implementation;
  Layout layout{Dt::f32, Tag::nChw16c, Dt::f32};
  bool allow_reference = false;  // fp32's last resort: slow but always there

  static constexpr size_t kMaxPlans = 48;

  float ActScale(size_t i) const {
    if (precision != Precision::kInt8) return 1.0f;
    return ActivationScale(calibration.max_activation.at(i));
  }
  memory::desc ActDesc(int batch, int channels, int size) const {
    const Layout& l = layout;
    return memory::desc({batch, channels, size, size}, l.act, l.tag);
  }
  util::Result<ConvStep> MakeConv(const ConvSpec& spec, const memory::desc& src_md,
                                  const memory::desc& dst_md);
  util::Result<std::unique_ptr<Plan>> MakePlan(int batch, int size);
  util::Result<Plan*> GetPlan(int batch, int size);
  void Run(Plan& p, const float* planes, int batch, std::vector<float>* maxima);
  void Heads(const Plan& p, int batch, float* logits, float* values) const;
};

util::Result<ConvStep> InferenceNet::Impl::MakeConv(const ConvSpec& spec,
                                                    const memory::desc& src_md,
                                                    const memory::desc& dst_md) {
  const FoldedConv& c = *spec.conv;
  const Layout& l = layout;
  const memory::dim pad = c.kernel / 2;
  const memory::desc wmd({c.out, c.in, c.kernel, c.kernel}, l.weight, Tag::any);
  const memory::desc bmd({c.out}, Dt::f32, Tag::x);
  const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                          dnnl::algorithm::convolution_direct, src_md, wmd, bmd,
                                          dst_md, {1, 1}, {pad, pad}, {pad, pad});
  dnnl::post_ops ops;
  const bool int8 = precision == Precision::kInt8;
  if (spec.residual_scale > 0.0f) {
    ops.append_sum(int8 ? spec.dst_scale / spec.residual_scale : 1.0f);
  }
  if (spec.relu) ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  // int8: per-output-channel weight scales; the accumulator holds conv * src * wscale.
  std::vector<float> wscale(c.out, 1.0f);
  std::vector<float> weights = c.weight;
  std::vector<float> bias = c.bias;
  const size_t per_oc = static_cast<size_t>(c.in) * c.kernel * c.kernel;
  if (int8) {
    std::vector<float> out_scales(c.out);
    for (int o = 0; o < c.out; ++o) {
      float m = 0.0f;
      for (size_t k = 0; k < per_oc; ++k) m = std::max(m, std::fabs(weights[o * per_oc + k]));
      wscale[o] = m > 0.0f ? 127.0f / m : 1.0f;
      const float acc_scale = spec.src_scale * wscale[o];
      out_scales[o] = (spec.dst_scale > 0.0f ? spec.dst_scale : 1.0f) / acc_scale;
      bias[o] *= acc_scale;
    }
    attr.set_output_scales(1 << 1, out_scales);
  }
  try {
    const dnnl::convolution_forward::primitive_desc pd(d, attr, engine);
    const std::string impl = pd.impl_info_str();
    if (impl.find("ref") != std::string::npos && !allow_reference) {
      return util::Result<ConvStep>::Failure(
          std::string(PrecisionName(precision)) + " convolution " + std::to_string(c.in) + "->" +
          std::to_string(c.out) + " " + std::to_string(c.kernel) + "x" + std::to_string(c.kernel) +
          " would run in oneDNN's reference code (" + impl + ") on this CPU");
    }
    if (implementation.empty()) implementation = impl;
    ConvStep step;
    step.prim = dnnl::convolution_forward(pd);
    const memory::desc user_md({c.out, c.in, c.kernel, c.kernel}, int8 ? Dt::s8 : Dt::f32,
                               Tag::oihw);
    memory user(user_md, engine);
    if (int8) {
      auto* q = static_cast<int8_t*>(user.get_data_handle());
      for (int o = 0; o < c.out; ++o) {
        for (size_t k = 0; k < per_oc; ++k) {
          const float v = std::nearbyint(weights[o * per_oc + k] * wscale[o]);
          q[o * per_oc + k] = static_cast<int8_t>(std::clamp(v, -127.0f, 127.0f));
        }
      }
    } else {
      std::memcpy(user.get_data_handle(), weights.data(), weights.size() * sizeof(float));
    }
    step.weights = memory(pd.weights_desc(), engine);
    dnnl::reorder(user, step.weights).execute(stream, user, step.weights);
    step.bias = memory(bmd, engine);
    std::memcpy(step.bias.get_data_handle(), bias.data(), bias.size() * sizeof(float));
    stream.wait();
    return step;
  } catch (const dnnl::error& e) {
    return util::Result<ConvStep>::Failure(std::string("oneDNN cannot build a ") +
                                           PrecisionName(precision) + " convolution: " + e.what());
  }
}

util::Result<std::unique_ptr<Plan>> InferenceNet::Impl::MakePlan(int batch, int size) {
  using R = util::Result<std::unique_ptr<Plan>>;
  auto p = std::make_unique<Plan>();
  p->batch = batch;
  p->size = size;
  const int channels = w.arch.channels;
  const memory::desc in_md({batch, kNumPlanes, size, size}, Dt::f32, Tag::nchw);
  const memory::desc x_md = ActDesc(batch, kNumPlanes, size);
  const memory::desc act_md = ActDesc(batch, channels, size);
  // The heads' output stays in the trunk's layout (oneDNN has no fast 1x1 kernel from a
  // blocked source into nchw); Heads() reads it through HeadLayout.
  const memory::desc heads_md({batch, w.heads.out, size, size}, Dt::f32, layout.tag);
  p->input = memory(in_md, engine);
  std::memset(p->input.get_data_handle(), 0, in_md.get_size());
  p->x = memory(x_md, engine);
  p->a = memory(act_md, engine);
  p->b = memory(act_md, engine);
  p->heads = memory(heads_md, engine);
  dnnl::primitive_attr in_attr;
  if (precision == Precision::kInt8) in_attr.set_output_scales(0, {ActScale(0)});
  p->to_trunk = dnnl::reorder(dnnl::reorder::primitive_desc(p->input, p->x, in_attr));

  // Activation i: 0 the planes, 1 the stem's output, 2 + j trunk convolution j's output.
  auto add = [&](const ConvSpec& spec, memory* src, memory* dst) -> util::Status {
    auto step = MakeConv(spec, src->get_desc(), dst->get_desc());
    if (!step) return util::Status::Failure(step.error());
    step.value().src = src;
    step.value().dst = dst;
    p->steps.push_back(std::move(step.value()));
    return util::Ok();
  };
  util::Status s = add({&w.stem, ActScale(0), ActScale(1), 0.0f, true}, &p->x, &p->a);
  size_t block_in = 1;  // the activation index held in `a`
  for (size_t j = 0; s.ok() && j < w.trunk.size(); j += 2) {
    s = add({&w.trunk[j], ActScale(block_in), ActScale(2 + j), 0.0f, true}, &p->a, &p->b);
    if (!s.ok()) break;
    s = add({&w.trunk[j + 1], ActScale(2 + j), ActScale(3 + j), ActScale(block_in), true}, &p->b,
            &p->a);
    block_in = 3 + j;
  }
  if (s.ok()) s = add({&w.heads, ActScale(block_in), 0.0f, 0.0f, true}, &p->a, &p->heads);
  if (!s.ok()) return R::Failure(s.error());
  return p;
}

util::Result<Plan*> InferenceNet::Impl::GetPlan(int batch, int size) {
  const auto key = std::make_pair(batch, size);
  auto it = plans.find(key);
  if (it != plans.end()) return it->second.get();
  if (plans.size() >= kMaxPlans) plans.clear();  // bounded; rebuilt on demand
  auto plan = MakePlan(batch, size);
  if (!plan) return plan.error_value();
  Plan* raw = plan.value().get();
  plans.emplace(key, std::move(plan.value()));
  return raw;
}

namespace {

// The largest value in `m` (f32 activations, any layout; padding is zero).
float MaxOf(const memory& m) {
  const auto* v = static_cast<const float*>(m.get_data_handle());
  const size_t n = m.get_desc().get_size() / sizeof(float);
  return n == 0 ? 0.0f : *std::max_element(v, v + n);
}

}  // namespace

void InferenceNet::Impl::Run(Plan& p, const float* planes, int batch, std::vector<float>* maxima) {
  const size_t row = static_cast<size_t>(PlanesSize(p.size));
  auto* in = static_cast<float*>(p.input.get_data_handle());
  std::memcpy(in, planes, row * batch * sizeof(float));
  std::memset(in + row * batch, 0, row * (p.batch - batch) * sizeof(float));
  p.to_trunk.execute(stream, p.input, p.x);
  if (maxima) maxima->push_back(1.0f);  // the planes lie in [0, 1]
  for (size_t i = 0; i < p.steps.size(); ++i) {
    ConvStep& s = p.steps[i];
    s.prim.execute(stream, {{DNNL_ARG_SRC, *s.src},
                            {DNNL_ARG_WEIGHTS, s.weights},
                            {DNNL_ARG_BIAS, s.bias},
                            {DNNL_ARG_DST, *s.dst}});
    if (maxima && i + 1 < p.steps.size()) {
      stream.wait();
      maxima->push_back(MaxOf(*s.dst));
    }
  }
  stream.wait();
}

void InferenceNet::Impl::Heads(const Plan& p, int batch, float* logits, float* values) const {
  const int area = p.size * p.size;
  const int h = w.arch.head_channels;
  const int hidden = w.arch.value_hidden;
  const float* all = static_cast<const float*>(p.heads.get_data_handle());
  // Offsets of element (b, c, square) in the trunk's layout: nhwc or nChw16c.
  const bool blocked = layout.tag == Tag::nChw16c;
  const int channels = w.heads.out;
  const size_t block = blocked ? 16 : channels;
  const size_t padded = (channels + block - 1) / block * block;
  const size_t square_stride = block;
  const size_t block_stride = block * area;
  const size_t batch_stride = padded * area;
  auto at = [&](int b, int c, int sq) {
    return all[b * batch_stride + (c / block) * block_stride + sq * square_stride + c % block];
  };
  const float pool_scale = (std::sqrt(static_cast<float>(area)) - 8.5f) / 1.5f;
  std::vector<float> pooled(3 * h);
  // Masked pooling of model/torch/network.h over a full board: mean, max, mean * size signal.
  auto pool = [&](int b, int first) {
    for (int c = 0; c < h; ++c) {
      float sum = 0.0f, max = 0.0f;
      for (int sq = 0; sq < area; ++sq) {
        const float v = at(b, first + c, sq);
        sum += v;
        max = std::max(max, v);
      }
      pooled[c] = sum / area;
      pooled[h + c] = max;
      pooled[2 * h + c] = pooled[c] * pool_scale;
    }
  };
  for (int i = 0; i < batch; ++i) {
    float* out = logits + static_cast<size_t>(i) * (area + 1);
    for (int sq = 0; sq < area; ++sq) {
      float logit = w.policy_b;
      for (int c = 0; c < h; ++c) logit += w.policy_w[c] * at(i, c, sq);
      out[sq] = logit;
    }
    pool(i, 0);
    float pass = w.pass_b;
    for (int k = 0; k < 3 * h; ++k) pass += w.pass_w[k] * pooled[k];
    out[area] = pass;
    pool(i, h);
    float v = w.value2_b;
    for (int j = 0; j < hidden; ++j) {
      const float* row = w.value1_w.data() + static_cast<size_t>(j) * 3 * h;
      float a = w.value1_b[j];
      for (int k = 0; k < 3 * h; ++k) a += row[k] * pooled[k];
      v += w.value2_w[j] * std::max(a, 0.0f);
    }
    values[i] = std::tanh(v);
  }
}

InferencePrecision AsInferencePrecision(Precision p) {
  switch (p) {
    case Precision::kBf16:
      return InferencePrecision::kBf16;
    case Precision::kInt8:
      return InferencePrecision::kInt8;
    case Precision::kFp32:
      break;
  }
  return InferencePrecision::kFp32;
}

const char* PrecisionName(Precision p) { return InferencePrecisionName(AsInferencePrecision(p)); }

util::Status CpuSupports(Precision p) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (p == Precision::kBf16 && !__builtin_cpu_supports("avx512bf16")) {
    return util::Status::Failure("this CPU lacks AVX-512 BF16 (avx512_bf16 in /proc/cpuinfo)");
  }
  if (p == Precision::kInt8 && !__builtin_cpu_supports("avx512vnni") &&
      !__builtin_cpu_supports("avxvnni")) {
    return util::Status::Failure("this CPU lacks VNNI (avx512_vnni or avx_vnni in /proc/cpuinfo)");
  }
  return util::Ok();
#else
  if (p == Precision::kFp32) return util::Ok();
  return util::Status::Failure("bf16 and int8 inference are built for x86-64 CPUs only");
#endif
}

int BatchBucket(int batch) {
  auto round_up = [&](int step) { return (batch + step - 1) / step * step; };
  if (batch <= 8) return std::max(batch, 1);
  if (batch <= 64) return round_up(8);
  if (batch <= 256) return round_up(32);
  return round_up(64);
}

InferenceNet::InferenceNet(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
InferenceNet::~InferenceNet() = default;

util::Result<std::unique_ptr<InferenceNet>> InferenceNet::Create(const InferenceWeights& weights,
                                                                 Precision precision,
                                                                 const Calibration& calibration) {
  using R = util::Result<std::unique_ptr<InferenceNet>>;
  if (util::Status supported = CpuSupports(precision); !supported.ok()) {
    return supported.error_value();
  }
  const size_t activations = 2 + weights.trunk.size();
  if (precision == Precision::kInt8 && calibration.max_activation.size() != activations) {
    return R::Failure("int8 inference needs a calibration of " + std::to_string(activations) +
                      " activation ranges");
  }
  auto impl = std::make_unique<Impl>();
  impl->w = weights;
  impl->precision = precision;
  impl->calibration = calibration;
  auto net = std::make_unique<InferenceNet>(std::move(impl));
  // The first layout whose kernels are all native; plans are built now so that an
  // unsupported precision fails here, not later. fp32 takes reference code as a last resort.
  Impl& im = *net->impl_;
  const std::vector<Layout> layouts = LayoutsOf(precision);
  std::string failure;
  for (size_t i = 0; i < layouts.size(); ++i) {
    im.layout = layouts[i];
    im.allow_reference = precision == Precision::kFp32 && i + 1 == layouts.size();
    im.plans.clear();
    im.implementation.clear();
    auto plan = im.GetPlan(1, 7);
    if (plan) return net;
    failure = plan.error();
  }
  return R::Failure(failure);
}

void InferenceNet::Forward(const float* planes, int batch, int size, float* logits, float* values) {
  auto plan = impl_->GetPlan(BatchBucket(batch), size);
  if (!plan) throw std::runtime_error(plan.error());
  impl_->Run(*plan.value(), planes, batch, nullptr);
  impl_->Heads(*plan.value(), batch, logits, values);
}

Calibration InferenceNet::MeasureRanges(const float* planes, int batch, int size) {
  Calibration c;
  auto plan = impl_->GetPlan(BatchBucket(batch), size);
  if (!plan || impl_->precision != Precision::kFp32) return c;
  impl_->Run(*plan.value(), planes, batch, &c.max_activation);
  return c;
}

Precision InferenceNet::precision() const { return impl_->precision; }
std::string InferenceNet::Implementation() const { return impl_->implementation; }

}  // namespace veletas::model
