import DesingletonIndex

/// Names a suggested slice from its members, in the style of the *Slicing* article and Swift's API
/// guidelines: `ItemFetcher` for a group that fetches items, `CurrentUserProvider` for one property,
/// `CurrentCart` for state with its operations, and, for larger groups, the words the members share
/// (`refreshAccount`, `accountRefreshDate` → `AccountRefreshing`; `unreadCount`, `resetUnreadCount`
/// → `UnreadCounting`). A name never contains a digit, and never is a name `isTaken` rejects: the
/// next candidate is tried instead (more shared words, the singleton's name in front, `Slice` after).
public enum SliceNamer {
  public static func name(
    for members: [MemberDecl], typeName: String, wholeType: Bool, isTaken: (String) -> Bool
  ) -> String {
    var candidates = baseNames(for: members, typeName: typeName, wholeType: wholeType)
    let type = clean(typeName)
    for base in candidates where !base.hasPrefix(type) { candidates.append(type + base) }
    for base in candidates { candidates.append(base + "Slice") }
    if let found = candidates.first(where: { !$0.isEmpty && !isTaken($0) }) { return found }
    // Letters, never a number, set the last candidates apart.
    var suffix = "A"
    let base = candidates.last ?? type + "Slice"
    while isTaken(base + suffix) { suffix = next(suffix) }
    return base + suffix
  }

  /// Candidate names, best first, each a valid type name without digits.
  static func baseNames(for members: [MemberDecl], typeName: String, wholeType: Bool) -> [String] {
    var names: [String] = []
    let methods = members.filter { $0.kind == .method }
    let properties = members.filter { $0.kind == .property }
    // The article's names for a small group.
    for method in methods {
      let words = self.words(method.name)
      for (verb, agent) in [("fetch", "Fetcher"), ("load", "Loader"), ("download", "Downloader")]
      where words.first?.hasPrefix(verb) == true {
        if let noun = words.dropFirst().last { names.append(singular(capitalized(noun)) + agent) }
      }
    }
    if wholeType { names.append(clean(typeName) + "Protocol") }
    // Members that share a verb are named by what they do (`unreadCount`, `resetUnreadCount` → `UnreadCounting`).
    let shared = sharedWordNames(members)
    if members.count > 1, let first = shared.first, first.hasSuffix("ing"), !first.hasSuffix("Providing") {
      names.append(first)
    }
    // One method named by what it does to what: `exportTheme` → `ThemeExporting`, `track` → `Tracking`.
    if members.count == 1, let method = methods.first, let verb = words(method.name).first, verbs.contains(verb) {
      let rest = Array(words(method.name).dropFirst())
      if rest.isEmpty {
        names.append(gerund(verb))
      } else if !rest.contains(where: { stopWords.contains($0) || particles.contains($0) }) {
        names.append(camel(Array(rest.dropLast())) + singular(capitalized(rest[rest.count - 1])) + gerund(verb))
      }
    }
    // A noun every member names says what the group is about (`notificationsEnabled`,
    // `pendingNotificationCount`, `scheduleNotification` → `NotificationProviding`), unless it is a
    // property the others act on (`cart`, `addItemToCart` → `CurrentCart`).
    let wordSets = members.map { Set(terms($0.name)) }
    if members.count > 1, let common = wordSets.dropFirst().reduce(wordSets.first, { $0?.intersection($1) }),
      common.contains(where: { $0.count > 2 && !stopWords.contains($0) && !verbs.contains($0) && !genericWords.contains($0) }),
      !properties.contains(where: { Set(terms($0.name)).isSubset(of: common) })
    {
      names += shared
    }
    if members.count <= 3 {
      let stored = properties.first { $0.isStored } ?? properties.first
      // `Current` names a thing the other members act on (`cart`, `addItemToCart` → `CurrentCart`),
      // never a question (`isAdding`, a `Bool`), nor one member of a group about something else.
      if let stored, !methods.isEmpty, !(words(stored.name).first.map(readingWords.contains) ?? false),
        !isFlag(stored), members.allSatisfy({ $0.name == stored.name || acts($0, on: stored) })
      {
        let base = camel(words(stored.name))
        names.append(words(stored.name).first == "current" ? base + "Service" : "Current" + base)
      } else if let first = properties.first, members.count == 1 {
        names.append(camel(words(first.name)) + "Provider")
      } else if let first = methods.first, members.count == 1 {
        names.append(singleMemberName(first))
      }
    }
    // The words the members share.
    names += shared
    if members.count > 1 {
      // Nothing shared: named after the singleton's subject, never after one member of several.
      let subject = self.subject(of: typeName)
      let changes = methods.count == members.count
        && members.allSatisfy { member in words(member.name).first.map(stem).map(changingVerbs.contains) == true }
      let role = changes ? "Editing" : properties.count == members.count ? "Providing" : "Service"
      names.append(subject + role)
      // When another slice has that name: the subject and the first word of its members that is
      // not the subject's, a method's as a verb (`bool`, `string` → `StoreBoolStringService`;
      // `updating`, `delete` → `AuthenticationUpdateDeleteEditing`), never a letter or a number.
      let subjectWords = Set(words(subject).map(singularWord))
      let leads = uniqued(
        members.compactMap { member in
          words(member.name).first { !readingWords.contains($0) && !subjectWords.contains(singularWord($0)) }
            .map { member.kind == .method ? stem($0) : $0 }
        })
      if leads.count >= 2 { names.append(subject + camel(Array(leads.prefix(2))) + role) }
      if leads.count >= 3 { names.append(subject + camel(Array(leads.prefix(3))) + role) }
    } else if let first = members.first {
      names.append(singleMemberName(first))
    }
    return uniqued(names.map(clean).filter { $0.first?.isLetter == true })
  }

  /// Whether a property holds a flag (`Bool`, optional or not): a state's question, not a thing.
  static func isFlag(_ property: MemberDecl) -> Bool {
    if let type = property.typeText { return type == "Bool" || type == "Bool?" || type == "Bool!" }
    return property.initializerText == "true" || property.initializerText == "false"
  }

  /// Whether a member acts on a property: its name shares a word with the property's
  /// (`addItemToCart` and `cart`), or is a verb alone, which acts on the group's one thing
  /// (`add`, `removeAll`, `rename`, `signIn`).
  static func acts(_ member: MemberDecl, on property: MemberDecl) -> Bool {
    let own = Set(terms(property.name)).subtracting(stopWords)
    let theirs = terms(member.name)
    if !own.isDisjoint(with: theirs) { return true }
    guard let first = theirs.first, verbs.contains(first) || changingVerbs.contains(first) else { return false }
    return theirs.dropFirst().allSatisfy { stopWords.contains($0) || particles.contains($0) }
  }

  /// A lone member's name as a type: a property or a method that reads (`getReplyVisibility`,
  /// `isManaged`) provides it, without a leading `get` (`ReplyVisibilityProvider`,
  /// `IsManagedProvider`); another method is a service (`PrimeForUseService`).
  static func singleMemberName(_ member: MemberDecl) -> String {
    var parts = words(member.name)
    let reads = member.kind != .method || parts.first.map(readingWords.contains) == true
    if parts.first == "get", parts.count > 1 { parts.removeFirst() }
    return camel(parts) + (reads ? "Provider" : "Service")
  }

  /// `AccountRefreshing` from the two words most members share: a noun, and a verb made a gerund.
  static func sharedWordNames(_ members: [MemberDecl]) -> [String] {
    var counts: [String: Int] = [:]
    var firstSeen: [String: Int] = [:]
    var position = 0
    let wordLists = members.map { terms($0.name) }
    for list in wordLists {
      for word in Set(list) where !stopWords.contains(word) && word.count > 1 {
        counts[word, default: 0] += 1
      }
      for word in list where firstSeen[word] == nil {
        firstSeen[word] = position
        position += 1
      }
    }
    let threshold = members.count == 1 ? 1 : 2
    let shared = counts.filter { $0.value >= threshold }.keys.sorted {
      (-(counts[$0] ?? 0), firstSeen[$0] ?? 0) < (-(counts[$1] ?? 0), firstSeen[$1] ?? 0)
    }
    guard let top = shared.first else { return [] }
    // The verb is the one members start with most (`clearImageCache`, `cacheSize` → `clear`).
    let leads = wordLists.map { $0.first }
    let verb = shared.filter(verbs.contains).enumerated()
      .max { (leads.count(of: $0.element), -$0.offset) < (leads.count(of: $1.element), -$1.offset) }?.element
    let nouns = shared.filter { !verbs.contains($0) && !genericWords.contains($0) }
    // Shared words written side by side, with the first noun among them, make a phrase where every
    // member that names the noun writes them so (`quickType`, `recentAutoFillEntry`; not
    // `shadeAlpha` when `destroyShade` names the shade alone): the longest, of at most four words.
    var phrase: String?
    if let first = nouns.first {
      let phraseWords = Set(shared.filter { !verbs.contains($0) })
      let naming = wordLists.filter { $0.contains(first) }
      func writes(_ list: [String], _ run: ArraySlice<String>) -> Bool {
        list.indices.contains { list[$0...].starts(with: run) }
      }
      var best: ArraySlice<String> = []
      for list in naming {
        for start in list.indices where phraseWords.contains(list[start]) {
          var end = start
          while end < list.endIndex, end - start < 4, phraseWords.contains(list[end]) { end += 1 }
          for last in stride(from: end, to: start + 1, by: -1) where last - start > max(best.count, 1) {
            let run = list[start..<last]
            if run.contains(first), naming.allSatisfy({ writes($0, run) }) {
              best = run
              break
            }
          }
        }
      }
      if !best.isEmpty { phrase = best.map(capitalized).joined() }
    }
    // Else the two nouns most shared, where a member writes them side by side (`profileImage`).
    if phrase == nil, nouns.count >= 2 {
      let (first, second) = (nouns[0], nouns[1])
      for list in wordLists {
        for index in list.indices.dropLast() {
          if list[index] == first && list[index + 1] == second { phrase = capitalized(first) + capitalized(second) }
          if list[index] == second && list[index + 1] == first { phrase = capitalized(second) + capitalized(first) }
        }
      }
    }
    let noun = nouns.first.map(capitalized)
    var names: [String] = []
    if let verb {
      if let phrase { names.append(phrase + gerund(verb)) }
      if let noun { names.append(noun + gerund(verb)) }
      // `unreadCount`, `resetUnreadCount`: the verb-like word names what is done (`UnreadCounting`).
      let other = shared.first { $0 != verb && !genericWords.contains($0) }
      names.append((other.map(capitalized) ?? "") + gerund(verb))
    } else if let noun {
      if let phrase { names.append(phrase + "Providing") }
      names.append(noun + "Providing")
    }
    names.append(capitalized(top) + "Service")
    return names
  }

  /// What a singleton is about: its name without trailing role words (`NoteStore` → `Note`,
  /// `AuthenticationServiceProvider` → `Authentication`), or the whole name when that is all it is
  /// (`Store`).
  static func subject(of typeName: String) -> String {
    var parts = writtenWords(typeName)
    let all = parts.count
    while parts.count > 1, let last = parts.last, roleWords.contains(singularWord(last.lowercased())) { parts.removeLast() }
    // As the singleton writes them: `SPObjectManager` → `SPObject`, not `SpObject`.
    return parts.count == all ? clean(typeName) : camel(parts)
  }

  /// Lowercased camel-case words, digits and underscores dropped: `load3` → `load`, `fetchURLs` → `fetch`, `urls`.
  static func words(_ name: String) -> [String] { writtenWords(name).map { $0.lowercased() } }

  /// The words a name is compared by: lowercased, verbs as their stem, nouns singular
  /// (`refreshedAccounts` → `refresh`, `account`).
  static func terms(_ name: String) -> [String] { words(name).map(stem).map(singularWord) }

  /// The camel-case words as written: `fetchURLs` → `fetch`, `URLs`.
  static func writtenWords(_ name: String) -> [String] {
    var result: [String] = []
    var current = ""
    let characters = Array(unquoted(name))
    for (position, character) in characters.enumerated() {
      guard character.isLetter else {
        if !current.isEmpty { result.append(current) }
        current = ""
        continue
      }
      let startsWord =
        character.isUppercase && !current.isEmpty
        && (!(current.last?.isUppercase ?? false)
          || (position + 1 < characters.count && characters[position + 1].isLowercase))
      if startsWord {
        result.append(current)
        current = ""
      }
      current.append(character)
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  /// A verb's inflections as the verb: `cached` → `cache`, `loaded` → `load`, `refreshing` → `refresh`.
  static func stem(_ word: String) -> String {
    for ending in ["ed", "ing", "s"] where word.hasSuffix(ending) {
      let base = String(word.dropLast(ending.count))
      if verbs.contains(base) { return base }
      if verbs.contains(base + "e") { return base + "e" }
    }
    return word
  }

  /// A plural noun as its singular, for comparing: `messages` → `message`, `entries` → `entry`.
  static func singularWord(_ word: String) -> String {
    guard word.count > 3 else { return word }
    if word.hasSuffix("ies") { return word.dropLast(3) + "y" }
    if word.hasSuffix("ss") || word.hasSuffix("us") { return word }
    if word.hasSuffix("s") { return String(word.dropLast()) }
    return word
  }

  static func camel(_ words: [String]) -> String { words.map(capitalized).joined() }

  /// `url` → `URL`, `urls` → `URLs` (an acronym is cased uniformly), `theme` → `Theme`.
  static func capitalized(_ word: String) -> String {
    let lower = word.lowercased()
    if acronyms.contains(lower) { return lower.uppercased() }
    if lower.hasSuffix("s"), acronyms.contains(String(lower.dropLast())) { return lower.dropLast().uppercased() + "s" }
    return word.prefix(1).uppercased() + word.dropFirst()
  }

  /// Letters and underscores only, starting with a letter.
  static func clean(_ name: String) -> String {
    let kept = name.filter { $0.isLetter || $0 == "_" }
    return String(kept.drop { !$0.isLetter })
  }

  static func singular(_ noun: String) -> String {
    if noun.hasSuffix("ies") { return noun.dropLast(3) + "y" }
    if noun.hasSuffix("ss") { return noun }
    if noun.hasSuffix("s") { return String(noun.dropLast()) }
    return noun
  }

  /// `refresh` → `Refreshing`, `save` → `Saving`, `log` → `Logging`.
  static func gerund(_ verb: String) -> String {
    if let irregular = irregularGerunds[verb] { return capitalized(irregular) }
    if verb.hasSuffix("ee") { return capitalized(verb + "ing") }
    if verb.hasSuffix("e") { return capitalized(String(verb.dropLast()) + "ing") }
    return capitalized(verb + "ing")
  }

  private static func next(_ suffix: String) -> String {
    guard let last = suffix.unicodeScalars.last, last.value < 90 else { return suffix + "A" }
    return String(suffix.dropLast()) + String(UnicodeScalar(last.value + 1).map(Character.init) ?? "A")
  }

  private static func uniqued(_ names: [String]) -> [String] {
    var seen: Set<String> = []
    return names.filter { seen.insert($0).inserted }
  }

  static let stopWords: Set<String> = [
    "is", "are", "was", "were", "does", "has", "did", "will", "should", "can", "the", "a", "an", "of", "for", "to", "with", "and", "or", "from", "by",
    "in", "on", "at", "as", "if", "new", "all", "get", "set", "value", "values", "current", "shared", "my",
  ]

  /// First words of a method that reads a value rather than doing something.
  static let readingWords: Set<String> = ["get", "is", "are", "has", "can", "should", "was", "were", "does"]

  /// Words written in capitals in Swift names (`themesURL`, `accountID`).
  static let acronyms: Set<String> = [
    "url", "id", "ui", "api", "html", "json", "xml", "http", "https", "pdf", "opml", "ssl", "uuid", "rss", "sql", "ip",
    "dns", "vpn", "css", "ssh", "usb", "gps", "ddc", "ocr",
  ]

  /// Words that make a verb a phrase (`logOut`, `signIn`): the verb alone is not what is done.
  static let particles: Set<String> = ["in", "out", "up", "down", "off", "over", "back", "away", "into", "onto"]

  /// Words that name a type's role rather than its subject.
  static let roleWords: Set<String> = [
    "store", "manager", "service", "controller", "provider", "center", "repository", "model", "helper", "handler",
    "coordinator", "engine", "client", "cache", "registry", "defaults", "settings",
  ]

  /// Verbs that change what a type holds: a group of such methods edits it.
  static let changingVerbs: Set<String> = [
    "add", "remove", "delete", "insert", "update", "set", "save", "clear", "reset", "mark", "toggle", "enable", "disable",
    "archive", "store", "restore", "write", "append", "move", "rename", "replace", "increment", "decrement",
    "activate", "deactivate",
  ]

  /// Words too common to say what a group is about.
  static let genericWords: Set<String> = [
    "count", "text", "id", "ids", "date", "url", "name", "names", "enabled", "last", "first", "total", "number",
    "data", "info", "item", "items", "list", "state", "status", "type", "kind", "size", "bytes", "time", "interval",
    "did", "change", "changed", "result", "results", "default", "defaults", "pending", "cached",
  ]

  static let verbs: Set<String> = [
    "fetch", "load", "reload", "refresh", "update", "save", "delete", "remove", "add", "insert", "sync", "count",
    "track", "log", "send", "upload", "download", "play", "pause", "start", "stop", "show", "hide", "present",
    "dismiss", "open", "close", "register", "unregister", "handle", "observe", "notify", "schedule", "cancel",
    "reset", "clear", "mark", "select", "search", "sort", "filter", "import", "export", "share", "sign", "login",
    "logout", "authenticate", "authorize", "cache", "store", "restore", "purchase", "subscribe", "unsubscribe",
    "configure", "prepare", "validate", "connect", "disconnect", "request", "post", "publish", "render", "format",
    "parse", "encode", "decode", "read", "write", "archive", "toggle", "enable", "disable", "navigate", "route",
    "report", "record", "measure", "monitor", "poll", "migrate", "backup", "persist", "retry", "resolve",
    "activate", "deactivate",
  ]

  private static let irregularGerunds: [String: String] = [
    "log": "logging", "stop": "stopping", "set": "setting", "run": "running", "get": "getting", "map": "mapping",
    "plan": "planning", "ship": "shipping", "tap": "tapping", "drop": "dropping", "post": "posting",
    "login": "loggingIn", "logout": "loggingOut", "reset": "resetting", "format": "formatting", "backup": "backingUp",
  ]
}

extension Array where Element == String? {
  fileprivate func count(of word: String) -> Int { self.count { $0 == word } }
}
