import Foundation

extension Decimal {

    /// The amount as US dollars, e.g. "$12.50". Prices are always shown in USD.
    var priceText: String {
        formatted(.currency(code: "USD").locale(Locale(identifier: "en_US")))
    }
}
