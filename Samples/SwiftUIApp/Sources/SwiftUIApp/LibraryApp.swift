import SwiftUI

/// The app: the system makes it and shows its window.
public struct LibraryApp: App {
    public init() {}

    public var body: some Scene {
        WindowGroup {
            ShelfView(heading: "Shelf")
        }
    }
}
