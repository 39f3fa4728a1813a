#include "cluster/transport/redis_client.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "util/atomic_file.h"

namespace veletas::cluster {
namespace {

timeval ToTimeval(double seconds) {
  timeval tv;
  tv.tv_sec = static_cast<time_t>(seconds);
  tv.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(tv.tv_sec)) * 1e6);
  return tv;
}

// The reply `r`, strings longer than `max_string` (> 0) left uncopied.
// A server still loading its data set (after a restart) answers every data command with
// "LOADING ...": the client treats it as a server not reachable yet, so that every caller's
// reconnect-and-retry path applies.
// A server at its connection limit answers "ERR max number of clients reached" and closes the
// connection: the same, a server not reachable for now.
bool IsUnreachable(const RedisValue& v) {
  return v.IsError() && (v.str.rfind("LOADING", 0) == 0 || v.str.rfind(kMaxClientsReply, 0) == 0);
}

RedisValue Convert(const redisReply* r, size_t max_string) {
  RedisValue v;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      v.type = RedisValue::Type::kString;
      if (max_string > 0 && r->len > max_string) {
        v.oversized = r->len;
      } else {
        v.str.assign(r->str, r->len);
      }
      break;
    case REDIS_REPLY_STATUS:
      v.type = RedisValue::Type::kStatus;
      v.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      v.type = RedisValue::Type::kError;
      v.str.assign(r->str, max_string > 0 ? std::min(r->len, max_string) : r->len);
      break;
    case REDIS_REPLY_INTEGER:
      v.type = RedisValue::Type::kInteger;
      v.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      v.type = RedisValue::Type::kArray;
      v.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) {
        v.elements.push_back(Convert(r->element[i], max_string));
      }
      break;
    default:
      v.type = RedisValue::Type::kNil;
  }
  return v;
}

// Frees a hiredis reply.
struct ReplyDeleter {
  void operator()(void* r) const { freeReplyObject(r); }
};

std::string FirstWord(const std::vector<std::string_view>& args) {
  return args.empty() ? std::string() : std::string(args.front());
}

}  // namespace

util::Result<RedisAuth> LoadRedisAuth(const std::string& file) {
  using R = util::Result<RedisAuth>;
  std::string path = file;
  if (path.empty()) {
    if (const char* env = std::getenv("VELETAS_REDIS_AUTH_FILE"); env != nullptr && *env) {
      path = env;
    }
  }
  if (path.empty()) {
    RedisAuth auth;
    if (const char* user = std::getenv("VELETAS_REDIS_USER")) auth.user = user;
    if (const char* password = std::getenv("VELETAS_REDIS_PASSWORD")) auth.password = password;
    if (!auth.user.empty() && auth.password.empty()) {
      return R::Error("VELETAS_REDIS_USER is set but VELETAS_REDIS_PASSWORD is not");
    }
    return auth;
  }
  const auto text = util::ReadFile(path);
  if (!text) return text.error_value();
  std::istringstream in(text.value());
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    if (w.size() > 2) {
      return R::Error(path + ": expected one line \"USER PASSWORD\" or \"PASSWORD\"");
    }
    RedisAuth auth;
    if (w.size() == 2) auth.user = w[0];
    auth.password = w.back();
    return auth;
  }
  return R::Error(path + ": empty; expected one line \"USER PASSWORD\" or \"PASSWORD\"");
}

util::Result<RedisOptions> MakeRedisOptions(const std::string& url, const std::string& auth_file,
                                            const std::string& client_name) {
  auto endpoint = util::ParseRedisUrl(url);
  if (!endpoint) return endpoint.error_value();
  auto auth = LoadRedisAuth(auth_file);
  if (!auth) return auth.error_value();
  RedisOptions options;
  options.endpoint = endpoint.value();
  options.auth = auth.value();
  options.client_name = client_name;
  return options;
}

RedisClient::RedisClient(RedisOptions options) : options_(std::move(options)) {}

RedisClient::~RedisClient() { Disconnect(); }

void RedisClient::Disconnect() {
  if (context_ != nullptr) redisFree(context_);
  context_ = nullptr;
}

util::Error RedisClient::IoError(const std::string& what) {
  std::string message = "redis " + options_.endpoint.ToString() + ": " + what;
  if (context_ != nullptr && context_->err != 0) message += ": " + std::string(context_->errstr);
  Disconnect();
  return util::Error{message, util::ErrorKind::kFailure};
}

util::Status RedisClient::Connect() {
  if (context_ != nullptr) return util::Ok();
  const util::RedisEndpoint& e = options_.endpoint;
  context_ =
      redisConnectWithTimeout(e.host.c_str(), e.port, ToTimeval(options_.connect_timeout_seconds));
  if (context_ == nullptr) return IoError("cannot connect (out of memory)");
  if (context_->err != 0) return IoError("cannot connect");
  redisSetTimeout(context_, ToTimeval(options_.command_timeout_seconds));
  redisEnableKeepAlive(context_);
  ++connections_;
  const RedisAuth& auth = options_.auth;
  if (!auth.Empty()) {
    std::vector<std::string_view> args{"AUTH"};
    if (!auth.user.empty()) args.push_back(auth.user);
    args.push_back(auth.password);
    auto reply = Command(args);
    if (!reply) return reply.error_value();
    if (reply.value().IsError() && reply.value().str.rfind("WRONGPASS", 0) != 0) {
      // Not a verdict on the credentials (e.g. OOM, a busy server): try again later.
      return IoError("AUTH: " + reply.value().str);
    }
    if (reply.value().IsError()) {
      Disconnect();
      return util::Status::Error("redis " + e.ToString() + ": authentication as \"" +
                                 (auth.user.empty() ? "default" : auth.user) +
                                 "\" refused: " + reply.value().str);
    }
  }
  if (!options_.client_name.empty()) {
    auto reply = Command({"CLIENT", "SETNAME", options_.client_name});
    if (!reply) return reply.error_value();  // a refused name (NOPERM) is not an error
  }
  if (options_.no_evict) {
    auto reply = Command({"CLIENT", "NO-EVICT", "on"});
    if (!reply) return reply.error_value();  // refused (an older setup): not an error
  }
  return util::Ok();
}

util::Result<RedisValue> RedisClient::Command(const std::vector<std::string_view>& args) {
  if (util::Status s = Connect(); !s.ok()) return s.error_value();
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (std::string_view a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  void* raw = redisCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lens.data());
  if (raw == nullptr) return IoError(FirstWord(args) + " failed");
  std::unique_ptr<void, ReplyDeleter> reply(raw);
  RedisValue value = Convert(static_cast<redisReply*>(raw), options_.max_string_bytes);
  if (IsUnreachable(value)) return IoError(FirstWord(args) + ": " + value.str);
  return value;
}

util::Result<RedisValue> RedisClient::Call(const std::vector<std::string_view>& args) {
  auto reply = Command(args);
  if (!reply) return reply;
  if (reply.value().IsError()) {
    return util::Result<RedisValue>::Failure("redis " + options_.endpoint.ToString() + ": " +
                                             FirstWord(args) + ": " + reply.value().str);
  }
  return reply;
}

util::Result<std::vector<RedisValue>> RedisClient::Pipeline(
    const std::vector<std::vector<std::string>>& commands) {
  if (util::Status s = Connect(); !s.ok()) return s.error_value();
  for (const std::vector<std::string>& c : commands) {
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    for (const std::string& a : c) {
      argv.push_back(a.data());
      lens.push_back(a.size());
    }
    if (redisAppendCommandArgv(context_, static_cast<int>(argv.size()), argv.data(), lens.data()) !=
        REDIS_OK) {
      return IoError("pipeline failed");
    }
  }
  std::vector<RedisValue> out;
  out.reserve(commands.size());
  for (size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) {
      return IoError((commands[i].empty() ? std::string() : commands[i].front()) + " failed");
    }
    std::unique_ptr<void, ReplyDeleter> reply(raw);
    out.push_back(Convert(static_cast<redisReply*>(raw), options_.max_string_bytes));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (IsUnreachable(out[i])) {
      return IoError((commands[i].empty() ? std::string() : commands[i].front()) + ": " +
                     out[i].str);
    }
  }
  return out;
}

}  // namespace veletas::cluster
