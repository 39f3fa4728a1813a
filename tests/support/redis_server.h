// A real redis-server for the cluster tests: started on a free loopback port with a temporary
// directory (AOF on), killed with SIGKILL and restarted from its AOF on demand, stopped and
// removed at destruction.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

namespace veletas::test_support {

class RedisServer {
 public:
  // Starts redis-server (on PATH) with appendonly yes, `appendfsync` and the extra
  // redis.conf lines given; waits until it answers. Null (with the reason in `why`) when it
  // cannot be started.
  static std::unique_ptr<RedisServer> Start(std::string& why,
                                            const std::string& appendfsync = "everysec",
                                            const std::string& extra_config = "");
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int Port() const { return port_; }
  // "redis://127.0.0.1:PORT".
  std::string Url() const;
  const std::string& Dir() const { return dir_; }
  // SIGKILL, as a crash would.
  void Kill();
  // Starts it again on the same port and directory (it reads its AOF). False if it does not
  // come up. With `wait` false it returns at once, while the server may still be starting or
  // loading its data.
  bool Restart(bool wait = true);

 private:
  RedisServer() = default;
  bool Launch(bool wait = true);
  int port_ = 0;
  pid_t pid_ = -1;
  std::string dir_;
  std::string config_;
};

// A free TCP port on 127.0.0.1 (bound and released; another process could take it).
int FreeLoopbackPort();

}  // namespace veletas::test_support
