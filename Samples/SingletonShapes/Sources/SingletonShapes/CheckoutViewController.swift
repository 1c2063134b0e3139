import UIKit

/// The last step of buying: shows the total and places the order.
final class CheckoutViewController: UIViewController {

    var total = "$0.00"

    private let totalLabel = UILabel()
    private let statusLabel = UILabel()
    private let placeOrderButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Checkout"

        totalLabel.accessibilityIdentifier = "checkout.total"
        statusLabel.accessibilityIdentifier = "checkout.status"
        placeOrderButton.accessibilityIdentifier = "checkout.placeOrder"
        placeOrderButton.setTitle("Place order", for: .normal)
        placeOrderButton.addAction(UIAction { [weak self] _ in
            self?.placeOrder()
        }, for: .touchUpInside)

        view.addSubview(totalLabel)
        view.addSubview(statusLabel)
        view.addSubview(placeOrderButton)
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        totalLabel.text = "Total: \(total)"
        Analytics.shared.track("checkout_viewed")
    }

    private func placeOrder() {
        Analytics.shared.log(Analytics.Event(name: "order_placed", properties: ["total": total]))
        let ordersPlaced = Analytics.shared.events(named: "order_placed").count
        statusLabel.text = "Order placed (\(ordersPlaced) so far)"
        Analytics.shared.track("checkout_completed", properties: ["orders": String(ordersPlaced)])
    }
}
