#include "cluster/transport/redis_batch.h"

#include <utility>

namespace veletas::cluster {
namespace {

// Appends the fields' names and values to `command`.
void AppendFields(std::vector<std::string>& command, RedisFields fields) {
  for (auto& [field, value] : fields) {
    command.push_back(std::move(field));
    command.push_back(std::move(value));
  }
}

}  // namespace

RedisBatch& RedisBatch::Ping() {
  commands_.push_back({"PING"});
  return *this;
}

RedisBatch& RedisBatch::GetValue(const std::string& key) {
  commands_.push_back({"GET", key});
  return *this;
}

RedisBatch& RedisBatch::SetValue(const std::string& key, const std::string& value) {
  commands_.push_back({"SET", key, value});
  return *this;
}

RedisBatch& RedisBatch::KeyExists(const std::string& key) {
  commands_.push_back({"EXISTS", key});
  return *this;
}

RedisBatch& RedisBatch::DeleteKey(const std::string& key) {
  commands_.push_back({"DEL", key});
  return *this;
}

RedisBatch& RedisBatch::HashSet(const std::string& key, const RedisFields& fields) {
  std::vector<std::string> command{"HSET", key};
  AppendFields(command, fields);
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::HashGetFields(const std::string& key,
                                      const std::vector<std::string>& fields) {
  std::vector<std::string> command{"HMGET", key};
  command.insert(command.end(), fields.begin(), fields.end());
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::HashIncrBy(const std::string& key, const std::string& field, long long by) {
  commands_.push_back({"HINCRBY", key, field, std::to_string(by)});
  return *this;
}

RedisBatch& RedisBatch::ListPush(const std::string& key, const std::string& value) {
  commands_.push_back({"LPUSH", key, value});
  return *this;
}

RedisBatch& RedisBatch::ListAppend(const std::string& key, std::vector<std::string> values) {
  std::vector<std::string> command{"RPUSH", key};
  for (std::string& v : values) command.push_back(std::move(v));
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::ListTrim(const std::string& key, long long start, long long stop) {
  commands_.push_back({"LTRIM", key, std::to_string(start), std::to_string(stop)});
  return *this;
}

RedisBatch& RedisBatch::StreamAdd(const std::string& key, RedisFields fields) {
  std::vector<std::string> command{"XADD", key, "*"};
  AppendFields(command, std::move(fields));
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::StreamAddCapped(const std::string& key, long long max_length,
                                        RedisFields fields) {
  std::vector<std::string> command{"XADD", key, "MAXLEN", "~", std::to_string(max_length), "*"};
  AppendFields(command, std::move(fields));
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::StreamAck(const std::string& key, const std::string& group,
                                  const std::vector<std::string>& ids) {
  std::vector<std::string> command{"XACK", key, group};
  command.insert(command.end(), ids.begin(), ids.end());
  commands_.push_back(std::move(command));
  return *this;
}

RedisBatch& RedisBatch::StreamLength(const std::string& key) {
  commands_.push_back({"XLEN", key});
  return *this;
}

RedisBatch& RedisBatch::StreamTrimBelow(const std::string& key, const std::string& min_id) {
  commands_.push_back({"XTRIM", key, "MINID", min_id});
  return *this;
}

RedisBatch& RedisBatch::Multi() {
  commands_.push_back({"MULTI"});
  return *this;
}

RedisBatch& RedisBatch::Exec() {
  commands_.push_back({"EXEC"});
  return *this;
}

util::Result<std::vector<RedisValue>> RedisBatch::Send(RedisClient& redis) const {
  return redis.Pipeline(commands_);
}

}  // namespace veletas::cluster
