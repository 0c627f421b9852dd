public import ArgumentParser
import ComponentKit
import Foundation

extension ReportFormat: ExpressibleByArgument {}

extension GraphRenderer.Format: ExpressibleByArgument {}

extension AffectedService.Format: ExpressibleByArgument {}

extension HashService.Format: ExpressibleByArgument {}
