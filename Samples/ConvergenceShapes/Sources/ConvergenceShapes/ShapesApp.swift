import SwiftUI

/// The app: the system makes it with `init()`; it starts the coordinator and puts the store
/// in its views' environment.
public struct ShapesApp: App {
    let coordinator = AppCoordinator()

    public init() {
        coordinator.start()
    }

    public var body: some Scene {
        WindowGroup {
            RootView(header: coordinator.list?.header.text ?? "")
                .environment(Store.shared)
        }
    }
}

/// The window's content.
struct RootView: View {
    let header: String

    var body: some View {
        VStack {
            Text(header)
            ItemsView()
            DetailView()
            ZoomView()
        }
    }
}
