/// Shows a temperature in the units the user prefers.
final class TemperatureFormatter: Sendable {
    func format(celsius: Double) -> String {
        if Preferences.shared.usesMetricUnits {
            return "\(Int(celsius.rounded())) °C"
        }
        return "\(Int((celsius * 9 / 5 + 32).rounded())) °F"
    }
}
