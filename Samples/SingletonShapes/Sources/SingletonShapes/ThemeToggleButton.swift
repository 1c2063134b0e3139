import UIKit

/// A button that switches between the light and dark themes and says which one it will switch to.
final class ThemeToggleButton: UIButton {

    /// Called after the theme changed.
    var onToggle: (() -> Void)?

    override init(frame: CGRect) {
        super.init(frame: frame)
        accessibilityIdentifier = "themeToggle"
        addAction(UIAction { [weak self] _ in
            self?.toggle()
        }, for: .touchUpInside)
        updateTitle()
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    private func toggle() {
        let manager = ThemeManager.shared
        manager.apply(manager.current.opposite, animated: false)
        updateTitle()
        onToggle?()
    }

    private func updateTitle() {
        setTitle("Switch to \(ThemeManager.shared.current.opposite.rawValue)", for: .normal)
    }
}
