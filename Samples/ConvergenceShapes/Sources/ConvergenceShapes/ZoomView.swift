import SwiftUI

/// The theme, and a zoom the platforms with a fixed scale leave out.
struct ZoomView: View {
    #if !os(visionOS)
    @State private var zoom = 1.0
    #endif

    var body: some View {
        VStack {
            Text("Theme \(Store.shared.theme)")
            Button("Dark") { Store.shared.theme = "dark" }
            #if !os(visionOS)
            Text("Zoom \(zoom)")
            Button("Zoom in") { zoom *= 2 }
            #endif
        }
    }
}
