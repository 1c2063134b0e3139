import Testing
import UIKit

/// Records the lifecycle callbacks it receives.
private final class RecordingViewController: UIViewController {
    var events: [String] = []

    override func loadView() {
        events.append("loadView")
        super.loadView()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        events.append("viewDidLoad")
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        events.append("viewWillAppear")
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        events.append("viewWillDisappear")
    }
}

@Suite("UIKit stand-in")
struct UIKitTests {

    @Test @MainActor func viewLoadsLazilyAndOnce() {
        let controller = RecordingViewController()
        #expect(!controller.isViewLoaded)
        _ = controller.view
        controller.loadViewIfNeeded()
        #expect(controller.events == ["loadView", "viewDidLoad"])
    }

    @Test @MainActor func buttonRunsItsActionsOnTouchUpInside() {
        let button = UIButton(type: .system)
        var taps = 0
        button.addAction(UIAction { _ in taps += 1 }, for: .touchUpInside)
        button.sendActions(for: .valueChanged)
        button.sendActions(for: .touchUpInside)
        #expect(taps == 1)
    }

    @Test @MainActor func buttonTitleFallsBackToNormal() {
        let button = UIButton()
        button.setTitle("Buy", for: .normal)
        #expect(button.title(for: .highlighted) == "Buy")
        #expect(button.currentTitle == "Buy")
    }

    @Test @MainActor func navigationStackAndAppearance() {
        let root = RecordingViewController()
        let navigationController = UINavigationController(rootViewController: root)
        let window = UIWindow(frame: .zero)
        window.rootViewController = navigationController
        #expect(root.events.isEmpty)

        window.makeKeyAndVisible()
        #expect(root.events == ["loadView", "viewDidLoad", "viewWillAppear"])

        let pushed = RecordingViewController()
        navigationController.pushViewController(pushed, animated: true)
        #expect(navigationController.topViewController === pushed)
        #expect(pushed.navigationController === navigationController)
        #expect(root.events.last == "viewWillDisappear")

        #expect(navigationController.popViewController(animated: true) === pushed)
        #expect(pushed.navigationController == nil)
        #expect(root.events.last == "viewWillAppear")
        #expect(navigationController.viewControllers.count == 1)
    }

    @Test @MainActor func presentAndDismiss() {
        let presenter = UIViewController()
        let presented = UIViewController()
        var completed = false
        presenter.present(presented, animated: true) { completed = true }
        #expect(completed)
        #expect(presenter.presentedViewController === presented)
        #expect(presented.presentingViewController === presenter)
        presented.dismiss(animated: true)
        #expect(presenter.presentedViewController == nil)
    }

    @Test @MainActor func stackViewForgetsRemovedViews() {
        let label = UILabel()
        let stack = UIStackView(arrangedSubviews: [label])
        #expect(stack.arrangedSubviews.count == 1)
        label.removeFromSuperview()
        #expect(stack.arrangedSubviews.isEmpty)
        #expect(stack.subviews.isEmpty)
    }

    @Test @MainActor func tableViewsMakeRegisteredCellsAndReuseThem() {
        final class Row: UITableViewCell {}
        let table = UITableView(frame: .zero, style: .plain)
        table.register(Row.self, forCellReuseIdentifier: "row")
        let first = table.dequeueReusableCell(withIdentifier: "row", for: IndexPath(row: 0, section: 0))
        #expect(first is Row)
        #expect(first.reuseIdentifier == "row")
        table.enqueueReusableCell(first)
        #expect(table.dequeueReusableCell(withIdentifier: "row", for: IndexPath(row: 1, section: 0)) === first)
        let made = UITableViewCell(style: .subtitle, reuseIdentifier: nil)
        #expect(made.reuseIdentifier == nil)
    }
}
