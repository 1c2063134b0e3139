import UIKit

/// A banner only the iOS app shows: the Mac target leaves this file out.
@MainActor
final class PhoneBanner: UIView {
    let label = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(label)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    func switchTheme() {
        Preferences.shared.toggleTheme()
        label.text = "Theme: \(Preferences.shared.theme)"
    }
}
