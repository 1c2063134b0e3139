#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import DesingletonCore

/// A build or test command (`--verify`), run with `/bin/sh -c` in a process group of its own so that
/// an interruption can end it with everything it started (the compiler's own processes included).
public struct ShellCommand: Sendable {
  public var command: String
  /// The directory it runs in; nil: the current directory.
  public var directory: String?

  public init(_ command: String, in directory: String? = nil) {
    self.command = command
    self.directory = directory
  }

  public struct Result: Sendable {
    public var status: Int32
    /// Standard output and standard error, interleaved as written.
    public var output: String
    public var succeeded: Bool { status == 0 }
  }

  /// Runs the command to its end. A SIGINT or SIGTERM noted by `Interruption` ends the command's
  /// process group (SIGTERM, then SIGKILL after two seconds) and throws `Interrupted`.
  public func run() throws -> Result {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw Refusal("cannot run '\(command)': no pipe (\(String(cString: strerror(errno))))") }
    let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, readEnd)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
    posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
    posix_spawn_file_actions_addclose(&actions, writeEnd)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let script = directory.map { "cd \(ShellCommand.quote($0)) && \(command)" } ?? command
    let arguments = ["/bin/sh", "-c", script]
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
    close(writeEnd)
    guard spawned == 0 else {
      close(readEnd)
      throw Refusal("cannot run '\(command)': \(String(cString: strerror(spawned)))")
    }
    let reader = OutputReader(fd: readEnd)
    reader.start()
    var status: Int32 = 0
    while true {
      let done = waitpid(pid, &status, WNOHANG)
      if done == pid { break }
      if done < 0 && errno != EINTR { break }
      if let signal = Interruption.pending {
        end(group: pid)
        reader.finish()
        throw Interrupted(signal: signal)
      }
      usleep(20_000)
    }
    // Whatever the command left running in its group holds the pipe open; it is not waited for.
    kill(-pid, SIGKILL)
    let output = reader.finish()
    let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Result(status: exitStatus, output: output)
  }

  /// Ends a process group: SIGTERM, up to two seconds for it to go, then SIGKILL.
  private func end(group pid: pid_t) {
    kill(-pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<100 {
      if waitpid(pid, &status, WNOHANG) == pid { break }
      usleep(20_000)
    }
    kill(-pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
  }

  /// `text` as one word for `/bin/sh`.
  public static func quote(_ text: String) -> String { shellWord(text) }
}

/// Reads a pipe to its end on a thread of its own, so the command never blocks on a full pipe.
private final class OutputReader: @unchecked Sendable {
  private let fd: Int32
  private var bytes: [UInt8] = []
  private var thread: pthread_t?
  private var joined = false

  init(fd: Int32) { self.fd = fd }

  func start() {
    let context = Unmanaged.passRetained(self).toOpaque()
    let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { pointer in
      guard let pointer else { return nil }
      let reader = Unmanaged<OutputReader>.fromOpaque(pointer).takeRetainedValue()
      reader.readAll()
      return nil
    }
    #if canImport(Darwin)
      var handle: pthread_t?
      let created = pthread_create(&handle, nil, body, context)
    #else
      var handle = pthread_t()
      let created = pthread_create(&handle, nil, body, context)
    #endif
    if created == 0 {
      thread = handle
    } else {
      Unmanaged<OutputReader>.fromOpaque(context).release()
      readAll()
    }
  }

  private func readAll() {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    close(fd)
  }

  /// Waits for the reader and returns what it read.
  @discardableResult
  func finish() -> String {
    if !joined, let thread { pthread_join(thread, nil) }
    joined = true
    return String(decoding: bytes, as: UTF8.self)
  }
}
