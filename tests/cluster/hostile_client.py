#!/usr/bin/env python3
"""A hostile worker's raw Redis client for cluster_hostile_test.sh: the attacks on Redis's own
resources that redis-cli cannot make (many connections held at once, pipelined requests whose
replies are never read, failed logins on one connection). Each prints one line of figures.

Usage: hostile_client.py PORT USER PASSWORD ATTACK ARGS...
  connections N               open up to N connections logged in as USER, also taking those
                              freed later, until Redis closes one; holds them until killed;
                              prints how many it holds as that changes
  unread KEY N                N pipelined LRANGE KEY 0 -1 on one connection, never read;
                              prints how many were sent before Redis closed the connection
  logins MADE_UP VICTIM K     on a connection logged in as USER: 5 refused commands, MADE_UP
                              failed logins under made-up names, then K as VICTIM
  anonymous MADE_UP VICTIM K  the same failed logins on a connection that never logged in
  noack KEY                   XREADGROUP GROUP workers evil COUNT 100 BLOCK 1000 NOACK STREAMS
                              KEY > in a loop (issue 48's first attack: tasks swallowed
                              unseen) until killed (SIGTERM); prints the reads refused and
                              the entries taken
  consumers KEY N MB          N XREADGROUP GROUP workers <a new name of MB MiB> COUNT 1
                              STREAMS KEY 0 (issue 48's fourth attack: consumers that stay);
                              prints how many were refused
  flood KEY MB                XADD entries of MB MiB to KEY (ever smaller ones once Redis
                              refuses, filling it to the byte), pipelined 8 at a time, until
                              killed (SIGTERM); prints how many were taken and refused
"""
import selectors
import signal
import socket
import sys
import time


def command(*args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    return out


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""

    def line(self):
        while b"\r\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed by Redis")
            self.buf += data
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def reply(self):
        """The next reply's first line; bulk and array bodies are skipped."""
        first = self.line()
        if first[:1] == b"$" and int(first[1:]) >= 0:
            n = int(first[1:]) + 2
            while len(self.buf) < n:
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("closed by Redis")
                self.buf += data
            self.buf = self.buf[n:]
        elif first[:1] == b"*":
            for _ in range(max(0, int(first[1:]))):
                self.reply()
        return first

    def call(self, *args):
        self.sock.sendall(command(*args))
        return self.reply()


def login(port, user, password):
    c = Conn(port)
    r = c.call("AUTH", user, password)
    if r != b"+OK":
        raise ConnectionError(r.decode(errors="replace"))
    return c


def connections(port, user, password, n):
    """Takes every connection it can (up to n), also those freed later, until Redis closes
    one of them: then it holds what is left and takes no more."""
    held = []
    poll = selectors.DefaultSelector()
    why = ""
    while True:
        events = poll.select(timeout=0.05)
        if events:
            print("connections: %d held, then closed by Redis" % len(held), flush=True)
            while True:
                time.sleep(1)
        if len(held) >= n:
            continue
        try:
            c = login(port, user, password)
            held.append(c)
            poll.register(c.sock, selectors.EVENT_READ)
            print("connections: %d held" % len(held), flush=True)
        except (OSError, ConnectionError) as e:
            if not why:
                why = str(e)
                print("connections: %d held (%s)" % (len(held), why), flush=True)
            time.sleep(0.05)


def unread(port, user, password, key, n):
    c = login(port, user, password)
    request = command("LRANGE", key, 0, -1)
    sent = 0
    why = "all sent"
    try:
        for _ in range(n // 100):
            c.sock.sendall(request * 100)
            sent += 100
        # Whatever Redis does with them, its answer is read only now: closed or not.
        time.sleep(2)
        c.sock.sendall(command("PING") * 1000)
        if not c.sock.recv(1):
            why = "closed by Redis"
    except (BrokenPipeError, ConnectionResetError) as e:
        why = "closed by Redis: %s" % e.__class__.__name__
    print("unread: %d requests sent (%s)" % (sent, why), flush=True)


def logins(port, user, password, made_up, victim, k, anonymous):
    c = Conn(port) if anonymous else login(port, user, password)
    refused = 0
    if not anonymous:
        for args in (("SET", "vz:hostile:config", "x"), ("DEL", "vz:hostile:current"),
                     ("KEYS", "*"), ("FLUSHALL",), ("XADD", "vz:hostile:results:w1", "*", "e", "x")):
            refused += c.call(*args).startswith(b"-NOPERM")
    failed = 0
    for i in range(made_up):
        failed += c.call("AUTH", "made-up-%d-%d" % (i, time.time_ns()), "x").startswith(b"-WRONGPASS")
    for _ in range(k):
        failed += c.call("AUTH", victim, "x").startswith(b"-WRONGPASS")
    print("logins: %d commands refused, %d logins failed" % (refused, failed), flush=True)


def until_killed(port, user, password, step, report):
    """Calls step(connection) again and again, logged in as USER (again when Redis closes
    the connection), until killed (SIGTERM): then prints report()."""
    def stop(*_):
        print(report(), flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    while True:
        try:
            c = login(port, user, password)
            while True:
                step(c)
        except (OSError, ConnectionError):
            time.sleep(0.05)


def flood(port, user, password, key, mb):
    """Keeps Redis full until killed (SIGTERM): pipelined XADDs of mb MiB to KEY, again and
    again, whether Redis takes them or not (reconnecting when it closes the connection)."""
    # Entries of mb MiB until Redis refuses one, then ever smaller ones: a refused command's
    # own request counts against maxmemory, so only small entries fill Redis to the byte.
    sizes = [mb << 20, 64 << 10, 4 << 10, 256]
    state = {"level": 0, "taken": 0, "refused": 0}

    def step(c):
        c.sock.sendall(command("XADD", key, "*", "e", b"y" * sizes[state["level"]]) * 8)
        for _ in range(8):
            r = c.reply()
            state["taken"] += r.startswith(b"$")
            if r.startswith(b"-OOM"):
                state["refused"] += 1
                state["level"] = min(state["level"] + 1, len(sizes) - 1)

    until_killed(port, user, password, step,
                 lambda: "flood: %d entries taken (%d MiB, then smaller), %d refused (OOM)" %
                 (state["taken"], mb, state["refused"]))


def noack(port, user, password, key):
    counts = {"reads": 0, "refused": 0, "taken": 0, "other": ""}

    def step(c):
        c.sock.sendall(command("XREADGROUP", "GROUP", "workers", "evil", "COUNT", 100,
                               "BLOCK", 1000, "NOACK", "STREAMS", key, ">"))
        first = c.line()
        counts["reads"] += 1
        if first.startswith(b"-NOPERM"):
            counts["refused"] += 1
        elif first.startswith(b"*") and int(first[1:]) > 0:
            # [[key, [entries...]]]: count the entries.
            c.line()
            c.reply()
            entries = c.line()
            n = max(0, int(entries[1:]))
            for _ in range(n):
                c.reply()
            counts["taken"] += n
        elif not first.startswith(b"*"):
            counts["other"] = " (also: %s)" % first.decode(errors="replace")[:80]
        time.sleep(0.01)

    until_killed(port, user, password, step,
                 lambda: "noack: %d reads, %d refused (NOPERM), %d entries taken%s" %
                 (counts["reads"], counts["refused"], counts["taken"], counts["other"]))


def consumers(port, user, password, key, n, mb):
    c = login(port, user, password)
    refused = 0
    for i in range(n):
        name = (b"%d-" % i) + b"c" * (mb << 20)
        r = c.call("XREADGROUP", "GROUP", "workers", name, "COUNT", 1, "STREAMS", key, 0)
        refused += r.startswith(b"-NOPERM")
    print("consumers: %d of %d names of %d MiB refused" % (refused, n, mb), flush=True)


def main():
    port, user, password, attack = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    a = sys.argv[5:]
    if attack == "connections":
        connections(port, user, password, int(a[0]))
    elif attack == "unread":
        unread(port, user, password, a[0], int(a[1]))
    elif attack in ("logins", "anonymous"):
        logins(port, user, password, int(a[0]), a[1], int(a[2]), attack == "anonymous")
    elif attack == "noack":
        noack(port, user, password, a[0])
    elif attack == "consumers":
        consumers(port, user, password, a[0], int(a[1]), int(a[2]))
    elif attack == "flood":
        flood(port, user, password, a[0], int(a[1]))
    else:
        sys.exit("unknown attack " + attack)


if __name__ == "__main__":
    main()
