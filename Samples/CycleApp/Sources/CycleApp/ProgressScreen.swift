/// The screen that lists how far the listener got in each episode.
@MainActor
final class ProgressScreen {
    var rows: [String] {
        SyncService.shared.progress.keys.sorted().map { "\($0): \(SyncService.shared.progress[$0] ?? 0)" }
    }

    var resume: String {
        SyncService.shared.resumeEpisode ?? "-"
    }
}
