#include "model/onednn/train_heads.h"

#include <algorithm>
#include <cmath>

namespace veletas::model {

namespace {

constexpr int kAuxClasses = 3;

// out[s] = bias + sum_c w[c] * x[c][s] for s < squares (x: [channels][squares]).
void Project(const float* x, const float* w, float bias, int channels, int squares, float* out) {
  std::fill(out, out + squares, bias);
  for (int c = 0; c < channels; ++c) {
    const float wc = w[c];
    const float* xc = x + static_cast<size_t>(c) * squares;
    for (int s = 0; s < squares; ++s) out[s] += wc * xc[s];
  }
}

// The pooling of features x [channels][squares] (>= 0): per channel the mean, the maximum
// and the mean * scale, into pool [3 * channels].
void Pool(const float* x, int channels, int squares, float scale, float* pool) {
  for (int c = 0; c < channels; ++c) {
    const float* xc = x + static_cast<size_t>(c) * squares;
    float sum = 0.0f, max = xc[0];
    for (int s = 0; s < squares; ++s) {
      sum += xc[s];
      max = std::max(max, xc[s]);
    }
    const float mean = sum / static_cast<float>(squares);
    pool[c] = mean;
    pool[channels + c] = max;
    pool[2 * channels + c] = mean * scale;
  }
}

// Adds the gradient of Pool's output d_pool [3 * channels] to dx [channels][squares]: the
// means' evenly, the maximum's shared between the squares holding it.
void PoolBackward(const float* x, const float* d_pool, int channels, int squares, float scale,
                  float* dx) {
  for (int c = 0; c < channels; ++c) {
    const float* xc = x + static_cast<size_t>(c) * squares;
    float* dc = dx + static_cast<size_t>(c) * squares;
    const float d_mean =
        (d_pool[c] + d_pool[2 * channels + c] * scale) / static_cast<float>(squares);
    float max = xc[0];
    for (int s = 0; s < squares; ++s) max = std::max(max, xc[s]);
    int ties = 0;
    for (int s = 0; s < squares; ++s) ties += xc[s] == max ? 1 : 0;
    const float d_max = d_pool[channels + c] / static_cast<float>(ties);
    for (int s = 0; s < squares; ++s) dc[s] += d_mean + (xc[s] == max ? d_max : 0.0f);
  }
}

}  // namespace

TrainHeads::TrainHeads(const NetConfig& arch, int batch, int size)
    : batch_(batch),
      squares_(size * size),
      h_(arch.head_channels),
      hidden_(arch.value_hidden),
      pool_scale_((std::sqrt(static_cast<float>(size * size)) - 8.5f) / 1.5f),
      pools_(static_cast<size_t>(batch) * 2 * 3 * arch.head_channels),
      hidden_act_(static_cast<size_t>(batch) * arch.value_hidden) {}

double TrainHeads::FlopsPerPosition() const {
  const double per_square = h_ + kAuxClasses * h_;
  return 2.0 * (per_square * squares_ + 3.0 * h_ * (hidden_ + 2) + hidden_);
}

void TrainHeads::Forward(const float* features, const HeadTensors& w, const HeadOutputs& out) {
  const int h = h_, s = squares_, pooled = 3 * h_;
  for (int b = 0; b < batch_; ++b) {
    const float* p = features + static_cast<size_t>(b) * 3 * h * s;
    const float* v = p + static_cast<size_t>(h) * s;
    const float* a = v + static_cast<size_t>(h) * s;
    float* pool_p = pools_.data() + static_cast<size_t>(b) * 2 * pooled;
    float* pool_v = pool_p + pooled;
    float* policy = out.policy + static_cast<size_t>(b) * (s + 1);
    Project(p, w.policy_out_w, w.policy_out_b[0], h, s, policy);
    Pool(p, h, s, pool_scale_, pool_p);
    float pass = w.pass_b[0];
    for (int i = 0; i < pooled; ++i) pass += w.pass_w[i] * pool_p[i];
    policy[s] = pass;
    Pool(v, h, s, pool_scale_, pool_v);
    float* hid = hidden_act_.data() + static_cast<size_t>(b) * hidden_;
    float value = w.value_fc2_b[0];
    for (int j = 0; j < hidden_; ++j) {
      const float* row = w.value_fc1_w + static_cast<size_t>(j) * pooled;
      float z = w.value_fc1_b[j];
      for (int i = 0; i < pooled; ++i) z += row[i] * pool_v[i];
      hid[j] = std::max(z, 0.0f);
      value += w.value_fc2_w[j] * hid[j];
    }
    out.value_logit[b] = value;
    for (int k = 0; k < kAuxClasses; ++k) {
      Project(a, w.aux_out_w + static_cast<size_t>(k) * h, w.aux_out_b[k], h, s,
              out.aux + (static_cast<size_t>(b) * kAuxClasses + k) * s);
    }
  }
}

void TrainHeads::Backward(const float* features, const HeadTensors& w, const HeadOutputGrads& d,
                          const HeadGrads& g, float* d_features) {
  const int h = h_, s = squares_, pooled = 3 * h_;
  std::fill(g.policy_out_w, g.policy_out_w + h, 0.0f);
  g.policy_out_b[0] = 0.0f;
  std::fill(g.pass_w, g.pass_w + pooled, 0.0f);
  g.pass_b[0] = 0.0f;
  std::fill(g.value_fc1_w, g.value_fc1_w + static_cast<size_t>(hidden_) * pooled, 0.0f);
  std::fill(g.value_fc1_b, g.value_fc1_b + hidden_, 0.0f);
  std::fill(g.value_fc2_w, g.value_fc2_w + hidden_, 0.0f);
  g.value_fc2_b[0] = 0.0f;
  std::fill(g.aux_out_w, g.aux_out_w + kAuxClasses * h, 0.0f);
  std::fill(g.aux_out_b, g.aux_out_b + kAuxClasses, 0.0f);
  std::fill(d_features, d_features + static_cast<size_t>(batch_) * 3 * h * s, 0.0f);
  std::vector<float> d_pool(pooled), d_hid(hidden_);
  for (int b = 0; b < batch_; ++b) {
    const size_t offset = static_cast<size_t>(b) * 3 * h * s;
    const float* p = features + offset;
    const float* v = p + static_cast<size_t>(h) * s;
    const float* a = v + static_cast<size_t>(h) * s;
    float* dp = d_features + offset;
    float* dv = dp + static_cast<size_t>(h) * s;
    float* da = dv + static_cast<size_t>(h) * s;
    const float* pool_p = pools_.data() + static_cast<size_t>(b) * 2 * pooled;
    const float* pool_v = pool_p + pooled;
    if (d.policy != nullptr) {
      const float* dpol = d.policy + static_cast<size_t>(b) * (s + 1);
      for (int c = 0; c < h; ++c) {
        const float* pc = p + static_cast<size_t>(c) * s;
        float* dpc = dp + static_cast<size_t>(c) * s;
        const float wc = w.policy_out_w[c];
        float dw = 0.0f;
        for (int q = 0; q < s; ++q) {
          dw += dpol[q] * pc[q];
          dpc[q] += dpol[q] * wc;
        }
        g.policy_out_w[c] += dw;
      }
      for (int q = 0; q < s; ++q) g.policy_out_b[0] += dpol[q];
      const float d_pass = dpol[s];
      g.pass_b[0] += d_pass;
      for (int i = 0; i < pooled; ++i) {
        g.pass_w[i] += d_pass * pool_p[i];
        d_pool[i] = d_pass * w.pass_w[i];
      }
      PoolBackward(p, d_pool.data(), h, s, pool_scale_, dp);
    }
    if (d.value_logit != nullptr) {
      const float dvl = d.value_logit[b];
      const float* hid = hidden_act_.data() + static_cast<size_t>(b) * hidden_;
      g.value_fc2_b[0] += dvl;
      std::fill(d_pool.begin(), d_pool.end(), 0.0f);
      for (int j = 0; j < hidden_; ++j) {
        g.value_fc2_w[j] += dvl * hid[j];
        const float dz = hid[j] > 0.0f ? dvl * w.value_fc2_w[j] : 0.0f;
        g.value_fc1_b[j] += dz;
        const float* row = w.value_fc1_w + static_cast<size_t>(j) * pooled;
        float* grow = g.value_fc1_w + static_cast<size_t>(j) * pooled;
        for (int i = 0; i < pooled; ++i) {
          grow[i] += dz * pool_v[i];
          d_pool[i] += dz * row[i];
        }
      }
      PoolBackward(v, d_pool.data(), h, s, pool_scale_, dv);
    }
    if (d.aux != nullptr) {
      for (int k = 0; k < kAuxClasses; ++k) {
        const float* dak = d.aux + (static_cast<size_t>(b) * kAuxClasses + k) * s;
        for (int q = 0; q < s; ++q) g.aux_out_b[k] += dak[q];
        for (int c = 0; c < h; ++c) {
          const float* ac = a + static_cast<size_t>(c) * s;
          float* dac = da + static_cast<size_t>(c) * s;
          const float wkc = w.aux_out_w[static_cast<size_t>(k) * h + c];
          float dw = 0.0f;
          for (int q = 0; q < s; ++q) {
            dw += dak[q] * ac[q];
            dac[q] += dak[q] * wkc;
          }
          g.aux_out_w[static_cast<size_t>(k) * h + c] += dw;
        }
      }
    }
  }
}

}  // namespace veletas::model
