#include "model/onednn/train_trunk.h"

#include <algorithm>
#include <chrono>
#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>
#include <vector>

#include "model/base/features.h"

namespace veletas::model {

namespace {

using dnnl::memory;
using Dt = memory::data_type;
using Tag = memory::format_tag;
using Flags = dnnl::normalization_flags;
using Args = std::unordered_map<int, memory>;

// Failure naming the primitive when oneDNN offers only its reference code for it.
util::Status NotReference(const std::string& what, const std::string& impl) {
  if (impl.find("ref") == std::string::npos) return util::Ok();
  return util::Status::Failure("oneDNN would run the trunk's " + what + " in its reference code (" +
                               impl + ") on this CPU");
}

// One convolution + batch norm of the trunk, with what its forward pass keeps.
struct Layer {
  int in = 0, out = 0, kernel = 3;
  memory::data_type type = memory::data_type::f32;  // the convolution's arithmetic
  bool relu = false;          // the batch norm's ReLU fused (stem, the first of each block)
  bool has_bwd_data = false;  // the stem's input needs no gradient
  dnnl::convolution_forward fwd;
  dnnl::convolution_backward_data bwd_data;
  dnnl::convolution_backward_weights bwd_weights;
  memory w_user, w_fwd, w_bwd;  // f32 oihw over the parameter; the primitives' layouts
  memory dw, dw_user;           // bwd_weights' layout; f32 oihw over the gradient
  dnnl::reorder to_w_fwd, to_w_bwd, from_dw;
  bool w_bwd_reorder = false;  // bwd_data wants another weights layout than fwd
  bool dw_reorder = false;     // bwd_weights' layout differs from f32 oihw
  dnnl::batch_normalization_forward bn_fwd;
  dnnl::batch_normalization_backward bn_bwd;
  memory conv_out, mean, var, ws;  // ws: the fused ReLU's workspace
  memory d_conv;                   // the gradient of conv_out, f32 (shared by same-shape layers)
  memory d_conv_in;            // d_conv as the convolution's backward passes take it (bf16: a copy)
  dnnl::reorder to_d_conv_in;  // bf16 only
  memory scale, shift, dscale, dshift;  // f32 [out] over the caller's arrays
};

}  // namespace

const char* TrunkPrecisionName(TrunkPrecision p) {
  return p == TrunkPrecision::kBf16 ? "bf16" : "fp32";
}

struct TrainTrunk::Impl {
  NetConfig arch;
  TrunkPrecision precision = TrunkPrecision::kFp32;
  TrunkBatchNorm bn;
  int batch = 0, size = 0;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  std::string implementation;
  // act_md: f32 activations (batch norms, the residual stream); in_md: the same as the
  // convolutions take them (bf16 at kBf16); x_md: the planes as the stem takes them.
  memory::desc act_md, in_md, x_md;
  memory::desc head_md;  // the heads' features: 3 * head_channels
  memory planes_user, x, out_user, grad_user;
  dnnl::reorder to_x, to_out, from_grad;
  std::vector<Layer> layers;
  std::vector<memory> t;  // block inputs/outputs: t[0] the stem's output, t[i + 1] block i's
  std::vector<memory> h;  // h[i]: block i's middle activation
  std::vector<memory> t_in, h_in;  // t and h as the convolutions take them (bf16: copies)
  dnnl::reorder to_in;             // f32 activations to bf16 (bf16 only)
  memory y;         // scratch: the second batch norm's output before the residual add
  memory features;  // the heads' features (blocked)
  memory d_t, d_pre, d_conv, d_h, d_t_a, d_features;  // gradients (blocked)
  dnnl::binary add_relu, add;
  dnnl::eltwise_backward relu_bwd;
  TrunkProfile* profile = nullptr;

  // Runs `run`, its seconds added to the profile's `field` when one is attached.
  template <class F>
  void Timed(double TrunkProfile::*field, F&& run) {
    if (profile == nullptr) {
      run();
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    run();
    stream.wait();
    profile->*field +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  bool Mixed() const { return precision == TrunkPrecision::kBf16; }
  // The convolutions' arithmetic: their inputs, weights and output gradients.
  Dt Act() const { return Mixed() ? Dt::bf16 : Dt::f32; }
  memory::desc Desc(int channels, Dt type = Dt::f32) const {
    return memory::desc({batch, channels, size, size}, type, Tag::nChw16c);
  }
  // `f32` as the convolutions take it: itself, or (bf16) a new copy.
  memory InCopy(const memory& f32) const {
    return Mixed() ? memory(Desc(static_cast<int>(f32.get_desc().dims()[1]), Dt::bf16), engine)
                   : f32;
  }
  // Rounds the f32 activation `from` into its bf16 copy `to` (bf16 only).
  void ToIn(memory from, memory to) {  // handles: copies share the buffers
    if (!Mixed()) return;
    Timed(&TrunkProfile::reorders_forward, [&] { to_in.execute(stream, from, to); });
  }
  util::Status MakeLayer(int in, int out, int kernel, bool relu, bool has_bwd_data, Layer& l);
  util::Status MakeConv(Layer& l, const memory::desc& src_md);
  util::Status MakeBatchNorm(Layer& l);
  util::Status MakeElementwise();
  void RunLayerForward(Layer& l, const TrunkLayerTensors& w, const memory& src, const memory& dst);
  void UpdateRunning(const Layer& l, const TrunkLayerTensors& w) const;
  void Forward(const float* planes, std::span<const TrunkLayerTensors> w, float* out);
  void Backward(const float* grad_out, std::span<const TrunkLayerTensors> w,
                std::span<const TrunkLayerGrads> g);
  // The layer's backward from the gradient of its batch norm's output `d_bn`: parameter
  // gradients, and the gradient of its input into `d_src` where it has one.
  void RunLayerBackward(Layer& l, const TrunkLayerTensors& w, const TrunkLayerGrads& g,
                        const memory& src, const memory& d_bn, const memory* d_src);
};

util::Status TrainTrunk::Impl::MakeConv(Layer& l, const memory::desc& src_md) {
  const int c = l.out, k = l.kernel;
  const memory::dims strides{1, 1}, pad{k / 2, k / 2};
  const memory::desc w_any({c, l.in, k, k}, l.type, Tag::any);
  const memory::desc w_user_md({c, l.in, k, k}, Dt::f32, Tag::oihw);
  // The output and its input's gradient in f32 (for the batch norm and the residual stream);
  // the output's gradient as the convolution's arithmetic.
  const memory::desc dst_md = Desc(c);
  const memory::desc diff_dst_md = Desc(c, l.type);
  const memory::desc diff_src_md = Desc(l.in);
  const dnnl::convolution_forward::primitive_desc fwd_pd(
      {dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct, src_md, w_any,
       dst_md, strides, pad, pad},
      engine);
  const std::string shape = std::to_string(l.in) + "->" + std::to_string(c) + " " +
                            std::to_string(k) + "x" + std::to_string(k) + " convolution";
  if (util::Status ok = NotReference(shape, fwd_pd.impl_info_str()); !ok.ok()) return ok;
  if (implementation.empty() && l.in == c && k == 3) implementation = fwd_pd.impl_info_str();
  l.fwd = dnnl::convolution_forward(fwd_pd);
  l.w_user = memory(w_user_md, engine, nullptr);
  l.w_fwd = memory(fwd_pd.weights_desc(), engine);
  l.to_w_fwd = dnnl::reorder(l.w_user, l.w_fwd);
  // f32 weight gradients where oneDNN offers them in bf16 too (no rounding of the gradient).
  dnnl::convolution_backward_weights::primitive_desc bww_pd;
  std::string impl;
  for (const Dt dw_type : {Dt::f32, l.type}) {
    bww_pd = dnnl::convolution_backward_weights::primitive_desc(
        {dnnl::algorithm::convolution_direct, src_md,
         memory::desc({c, l.in, k, k}, dw_type, Tag::any), diff_dst_md, strides, pad, pad},
        engine, fwd_pd);
    impl = bww_pd.impl_info_str();
    if (impl.find("ref") == std::string::npos) break;
  }
  if (util::Status ok = NotReference(shape + " backward_weights", impl); !ok.ok()) return ok;
  l.bwd_weights = dnnl::convolution_backward_weights(bww_pd);
  l.dw = memory(bww_pd.diff_weights_desc(), engine);
  l.dw_user = memory(w_user_md, engine, nullptr);
  l.dw_reorder = bww_pd.diff_weights_desc() != w_user_md;
  if (l.dw_reorder) l.from_dw = dnnl::reorder(l.dw, l.dw_user);
  if (!l.has_bwd_data) return util::Ok();
  const dnnl::convolution_backward_data::primitive_desc bwd_pd(
      {dnnl::algorithm::convolution_direct, diff_src_md, w_any, diff_dst_md, strides, pad, pad},
      engine, fwd_pd);
  if (util::Status ok = NotReference(shape + " backward_data", bwd_pd.impl_info_str()); !ok.ok()) {
    return ok;
  }
  l.bwd_data = dnnl::convolution_backward_data(bwd_pd);
  l.w_bwd_reorder = bwd_pd.weights_desc() != fwd_pd.weights_desc();
  l.w_bwd = l.w_bwd_reorder ? memory(bwd_pd.weights_desc(), engine) : l.w_fwd;
  if (l.w_bwd_reorder) l.to_w_bwd = dnnl::reorder(l.w_user, l.w_bwd);
  return util::Ok();
}

util::Status TrainTrunk::Impl::MakeBatchNorm(Layer& l) {
  const memory::desc md = Desc(l.out);
  const auto eps = static_cast<float>(bn.eps);
  const Flags flags =
      Flags::use_scale | Flags::use_shift | (l.relu ? Flags::fuse_norm_relu : Flags::none);
  const dnnl::batch_normalization_forward::primitive_desc fwd_pd(
      {dnnl::prop_kind::forward_training, md, eps, flags}, engine);
  if (util::Status ok = NotReference("batch norm", fwd_pd.impl_info_str()); !ok.ok()) return ok;
  const dnnl::batch_normalization_backward::primitive_desc bwd_pd(
      {dnnl::prop_kind::backward, md, md, eps, flags}, engine, fwd_pd);
  if (util::Status ok = NotReference("batch norm backward", bwd_pd.impl_info_str()); !ok.ok()) {
    return ok;
  }
  l.bn_fwd = dnnl::batch_normalization_forward(fwd_pd);
  l.bn_bwd = dnnl::batch_normalization_backward(bwd_pd);
  l.conv_out = memory(md, engine);
  l.mean = memory(fwd_pd.mean_desc(), engine);
  l.var = memory(fwd_pd.variance_desc(), engine);
  if (l.relu) l.ws = memory(fwd_pd.workspace_desc(), engine);
  const memory::desc vec({l.out}, Dt::f32, Tag::x);
  l.scale = memory(vec, engine, nullptr);
  l.shift = memory(vec, engine, nullptr);
  l.dscale = memory(vec, engine, nullptr);
  l.dshift = memory(vec, engine, nullptr);
  return util::Ok();
}

util::Status TrainTrunk::Impl::MakeLayer(int in, int out, int kernel, bool relu, bool has_bwd_data,
                                         Layer& l) {
  l.in = in;
  l.out = out;
  l.kernel = kernel;
  l.relu = relu;
  l.has_bwd_data = has_bwd_data;
  const memory::desc& src_md = in == kNumPlanes ? x_md : l.type == Dt::bf16 ? in_md : act_md;
  if (util::Status ok = MakeConv(l, src_md); !ok.ok()) return ok;
  return MakeBatchNorm(l);
}

util::Status TrainTrunk::Impl::MakeElementwise() {
  dnnl::post_ops relu;
  relu.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(relu);
  add_relu = dnnl::binary({{dnnl::algorithm::binary_add, act_md, act_md, act_md}, attr, engine});
  add = dnnl::binary({{dnnl::algorithm::binary_add, act_md, act_md, act_md}, engine});
  const dnnl::eltwise_forward::primitive_desc hint(
      {dnnl::prop_kind::forward_training, dnnl::algorithm::eltwise_relu_use_dst_for_bwd, act_md,
       0.0f, 0.0f},
      engine);
  relu_bwd = dnnl::eltwise_backward(
      {{dnnl::algorithm::eltwise_relu_use_dst_for_bwd, act_md, act_md, 0.0f, 0.0f}, engine, hint});
  return util::Ok();
}

util::Result<std::unique_ptr<TrainTrunk>> TrainTrunk::Create(const NetConfig& arch,
                                                             TrunkPrecision precision, int batch,
                                                             int size, TrunkBatchNorm bn) {
  using R = util::Result<std::unique_ptr<TrainTrunk>>;
  auto im = std::make_unique<Impl>();
  im->arch = arch;
  im->precision = precision;
  im->bn = bn;
  im->batch = batch;
  im->size = size;
  try {
    const int c = arch.channels;
    const int features = 3 * arch.head_channels;
    im->act_md = im->Desc(c);
    im->in_md = im->Desc(c, im->Act());
    im->x_md = im->Desc(kNumPlanes, im->Act());
    im->head_md = im->Desc(features);
    const memory::desc planes_md({batch, kNumPlanes, size, size}, Dt::f32, Tag::nchw);
    const memory::desc out_md({batch, features, size, size}, Dt::f32, Tag::nchw);
    im->planes_user = memory(planes_md, im->engine, nullptr);
    im->x = memory(im->x_md, im->engine);
    im->to_x = dnnl::reorder(im->planes_user, im->x);
    im->out_user = memory(out_md, im->engine, nullptr);
    im->grad_user = memory(out_md, im->engine, nullptr);
    im->layers.resize(2 + 2 * static_cast<size_t>(arch.blocks));
    for (size_t i = 0; i < im->layers.size(); ++i) {
      const bool stem = i == 0;
      const bool head = i + 1 == im->layers.size();
      // The heads' 1x1 layer stays f32 at kBf16 too (a few % of the arithmetic): in bf16 it
      // moved the aux head's gradient beyond what autocast's bf16 does (docs/RESULTS.md).
      im->layers[i].type = head ? Dt::f32 : im->Act();
      const util::Status ok = head ? im->MakeLayer(c, features, 1, true, true, im->layers[i])
                                   : im->MakeLayer(stem ? kNumPlanes : c, c, 3, stem || i % 2 == 1,
                                                   !stem, im->layers[i]);
      if (!ok.ok()) return R::Failure(ok.error());
    }
    if (util::Status ok = im->MakeElementwise(); !ok.ok()) return R::Failure(ok.error());
    for (int i = 0; i <= arch.blocks; ++i) im->t.emplace_back(im->act_md, im->engine);
    for (int i = 0; i < arch.blocks; ++i) im->h.emplace_back(im->act_md, im->engine);
    for (const memory& m : im->t) im->t_in.push_back(im->InCopy(m));
    for (const memory& m : im->h) im->h_in.push_back(im->InCopy(m));
    if (im->Mixed()) im->to_in = dnnl::reorder(im->t[0], im->t_in[0]);
    for (memory* m : {&im->y, &im->d_t, &im->d_pre, &im->d_conv, &im->d_h, &im->d_t_a}) {
      *m = memory(im->act_md, im->engine);
    }
    im->features = memory(im->head_md, im->engine);
    im->d_features = memory(im->head_md, im->engine);
    for (Layer& l : im->layers) {
      l.d_conv = l.out == c ? im->d_conv : memory(im->head_md, im->engine);
      if (l.type == Dt::bf16) {
        l.d_conv_in = im->InCopy(l.d_conv);
        l.to_d_conv_in = dnnl::reorder(l.d_conv, l.d_conv_in);
      } else {
        l.d_conv_in = l.d_conv;
      }
    }
    im->to_out = dnnl::reorder(im->features, im->out_user);
    im->from_grad = dnnl::reorder(im->grad_user, im->d_features);
  } catch (const dnnl::error& e) {
    return R::Failure(std::string("oneDNN cannot build the trunk's ") +
                      TrunkPrecisionName(precision) + " training primitives for batch " +
                      std::to_string(batch) + " on " + std::to_string(size) + "x" +
                      std::to_string(size) + ": " + e.what());
  }
  return std::unique_ptr<TrainTrunk>(new TrainTrunk(std::move(im)));
}

TrainTrunk::TrainTrunk(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TrainTrunk::~TrainTrunk() = default;

void TrainTrunk::SetProfile(TrunkProfile* profile) { impl_->profile = profile; }

int TrainTrunk::Layers() const { return static_cast<int>(impl_->layers.size()); }
const std::string& TrainTrunk::Implementation() const { return impl_->implementation; }

void TrainTrunk::Impl::RunLayerForward(Layer& l, const TrunkLayerTensors& w, const memory& src,
                                       const memory& dst) {
  l.w_user.set_data_handle(const_cast<float*>(w.conv_weight));
  Timed(&TrunkProfile::reorders_forward, [&] { l.to_w_fwd.execute(stream, l.w_user, l.w_fwd); });
  Timed(&TrunkProfile::conv_forward, [&] {
    l.fwd.execute(stream,
                  {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, l.w_fwd}, {DNNL_ARG_DST, l.conv_out}});
  });
  l.scale.set_data_handle(const_cast<float*>(w.bn_weight));
  l.shift.set_data_handle(const_cast<float*>(w.bn_bias));
  Args args{{DNNL_ARG_SRC, l.conv_out}, {DNNL_ARG_DST, dst},       {DNNL_ARG_MEAN, l.mean},
            {DNNL_ARG_VARIANCE, l.var}, {DNNL_ARG_SCALE, l.scale}, {DNNL_ARG_SHIFT, l.shift}};
  if (l.relu) args[DNNL_ARG_WORKSPACE] = l.ws;
  Timed(&TrunkProfile::bn_forward, [&] { l.bn_fwd.execute(stream, args); });
}

void TrainTrunk::Impl::UpdateRunning(const Layer& l, const TrunkLayerTensors& w) const {
  const auto* mean = static_cast<const float*>(l.mean.get_data_handle());
  const auto* var = static_cast<const float*>(l.var.get_data_handle());
  const double count = static_cast<double>(batch) * size * size;
  const auto unbias = static_cast<float>(count / std::max(count - 1.0, 1.0));
  const auto keep = static_cast<float>(1.0 - bn.momentum);
  const auto take = static_cast<float>(bn.momentum);
  for (int c = 0; c < l.out; ++c) {
    w.running_mean[c] = w.running_mean[c] * keep + mean[c] * take;
    w.running_var[c] = w.running_var[c] * keep + (var[c] * unbias) * take;
  }
}

void TrainTrunk::Forward(const float* planes, std::span<const TrunkLayerTensors> w, float* out) {
  impl_->Timed(&TrunkProfile::forward, [&] { impl_->Forward(planes, w, out); });
}

void TrainTrunk::Backward(const float* grad_out, std::span<const TrunkLayerTensors> w,
                          std::span<const TrunkLayerGrads> g) {
  impl_->Timed(&TrunkProfile::backward, [&] { impl_->Backward(grad_out, w, g); });
}

void TrainTrunk::Impl::Forward(const float* planes, std::span<const TrunkLayerTensors> w,
                               float* out) {
  Impl& im = *this;
  dnnl::stream& s = im.stream;
  im.planes_user.set_data_handle(const_cast<float*>(planes));
  im.Timed(&TrunkProfile::reorders_forward, [&] { im.to_x.execute(s, im.planes_user, im.x); });
  im.RunLayerForward(im.layers[0], w[0], im.x, im.t[0]);
  im.ToIn(im.t[0], im.t_in[0]);
  for (int i = 0; i < im.arch.blocks; ++i) {
    const size_t a = 1 + 2 * static_cast<size_t>(i);
    im.RunLayerForward(im.layers[a], w[a], im.t_in[i], im.h[i]);
    im.ToIn(im.h[i], im.h_in[i]);
    im.RunLayerForward(im.layers[a + 1], w[a + 1], im.h_in[i], im.y);
    im.Timed(&TrunkProfile::residual_forward, [&] {
      im.add_relu.execute(
          s, {{DNNL_ARG_SRC_0, im.t[i]}, {DNNL_ARG_SRC_1, im.y}, {DNNL_ARG_DST, im.t[i + 1]}});
    });
    im.ToIn(im.t[i + 1], im.t_in[i + 1]);
  }
  im.RunLayerForward(im.layers.back(), w.back(), im.t.back(), im.features);
  im.out_user.set_data_handle(out);
  im.Timed(&TrunkProfile::reorders_forward,
           [&] { im.to_out.execute(s, im.features, im.out_user); });
  s.wait();
  im.Timed(&TrunkProfile::running_stats, [&] {
    for (size_t l = 0; l < im.layers.size(); ++l) im.UpdateRunning(im.layers[l], w[l]);
  });
}

void TrainTrunk::Impl::RunLayerBackward(Layer& l, const TrunkLayerTensors& w,
                                        const TrunkLayerGrads& g, const memory& src,
                                        const memory& d_bn, const memory* d_src) {
  l.scale.set_data_handle(const_cast<float*>(w.bn_weight));
  l.shift.set_data_handle(const_cast<float*>(w.bn_bias));
  l.dscale.set_data_handle(g.bn_weight);
  l.dshift.set_data_handle(g.bn_bias);
  Args args{{DNNL_ARG_SRC, l.conv_out},     {DNNL_ARG_MEAN, l.mean},
            {DNNL_ARG_VARIANCE, l.var},     {DNNL_ARG_DIFF_DST, d_bn},
            {DNNL_ARG_SCALE, l.scale},      {DNNL_ARG_SHIFT, l.shift},
            {DNNL_ARG_DIFF_SRC, l.d_conv},  {DNNL_ARG_DIFF_SCALE, l.dscale},
            {DNNL_ARG_DIFF_SHIFT, l.dshift}};
  if (l.relu) args[DNNL_ARG_WORKSPACE] = l.ws;
  Timed(&TrunkProfile::bn_backward, [&] { l.bn_bwd.execute(stream, args); });
  if (l.type == Dt::bf16) {
    Timed(&TrunkProfile::reorders_backward,
          [&] { l.to_d_conv_in.execute(stream, l.d_conv, l.d_conv_in); });
  }
  l.dw_user.set_data_handle(g.conv_weight);
  const memory& dw = l.dw_reorder ? l.dw : l.dw_user;
  Timed(&TrunkProfile::conv_backward_weights, [&] {
    l.bwd_weights.execute(
        stream,
        {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, l.d_conv_in}, {DNNL_ARG_DIFF_WEIGHTS, dw}});
  });
  if (l.dw_reorder) {
    Timed(&TrunkProfile::reorders_backward, [&] { l.from_dw.execute(stream, l.dw, l.dw_user); });
  }
  if (d_src == nullptr) return;
  if (l.w_bwd_reorder) {
    l.w_user.set_data_handle(const_cast<float*>(w.conv_weight));
    Timed(&TrunkProfile::reorders_backward, [&] { l.to_w_bwd.execute(stream, l.w_user, l.w_bwd); });
  }
  Timed(&TrunkProfile::conv_backward_data, [&] {
    l.bwd_data.execute(stream, {{DNNL_ARG_DIFF_DST, l.d_conv_in},
                                {DNNL_ARG_WEIGHTS, l.w_bwd},
                                {DNNL_ARG_DIFF_SRC, *d_src}});
  });
}

void TrainTrunk::Impl::Backward(const float* grad_out, std::span<const TrunkLayerTensors> w,
                                std::span<const TrunkLayerGrads> g) {
  Impl& im = *this;
  dnnl::stream& s = im.stream;
  im.grad_user.set_data_handle(const_cast<float*>(grad_out));
  im.Timed(&TrunkProfile::reorders_backward,
           [&] { im.from_grad.execute(s, im.grad_user, im.d_features); });
  im.RunLayerBackward(im.layers.back(), w.back(), g.back(), im.t.back(), im.d_features, &im.d_t);
  for (int i = im.arch.blocks - 1; i >= 0; --i) {
    const size_t a = 1 + 2 * static_cast<size_t>(i);
    // t[i + 1] = relu(t[i] + bn_b(conv_b(h[i]))): d_pre reaches both the skip and bn_b.
    im.Timed(&TrunkProfile::residual_backward, [&] {
      im.relu_bwd.execute(s, {{DNNL_ARG_DST, im.t[i + 1]},
                              {DNNL_ARG_DIFF_DST, im.d_t},
                              {DNNL_ARG_DIFF_SRC, im.d_pre}});
    });
    im.RunLayerBackward(im.layers[a + 1], w[a + 1], g[a + 1], im.h_in[i], im.d_pre, &im.d_h);
    im.RunLayerBackward(im.layers[a], w[a], g[a], im.t_in[i], im.d_h, &im.d_t_a);
    im.Timed(&TrunkProfile::residual_backward, [&] {
      im.add.execute(
          s, {{DNNL_ARG_SRC_0, im.d_pre}, {DNNL_ARG_SRC_1, im.d_t_a}, {DNNL_ARG_DST, im.d_t}});
    });
  }
  im.RunLayerBackward(im.layers[0], w[0], g[0], im.x, im.d_t, nullptr);
  s.wait();
}

}  // namespace veletas::model
